package runner

// usersOf and modesOf are promoted to an options struct that embeds Users or Modes: VU finds them there when
// the workload names no accessor.
func (u *Users) usersOf() *Users { return u }
func (m *Modes) modesOf() *Modes { return m }

// users are the shared options inside o.
func (w VU[T]) users(o *T) *Users {
	if w.Users != nil {
		return w.Users(o)
	}
	return any(o).(interface{ usersOf() *Users }).usersOf()
}

// modes are the modes inside o; nil for a workload without modes and checks.
func (w VU[T]) modes(o *T) *Modes {
	if w.Modes != nil {
		return w.Modes(o)
	}
	if m, ok := any(o).(interface{ modesOf() *Modes }); ok {
		return m.modesOf()
	}
	return nil
}
