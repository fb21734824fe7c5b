package workload

import (
	"fmt"
	"reflect"
)

// A group of options (runner.Users, the method's StepFlags, Measuring) is read as a struct of its own,
// whatever struct embeds it, so that the method and the runner read the options they own as fields, never by
// name: Group decodes them, Given says whether one was given, FlagOf is the option a field holds (the flag a
// sweep or a search sets).

// in is the path of the flag's field inside a struct of type t: its own path when t is the options struct
// that declares it, the rest of the path when t is a group that struct embeds on the way to the field.
func (f Flag) in(t reflect.Type) ([]int, bool) {
	if f.field == nil || f.owner == nil {
		return nil, false
	}
	if f.owner == t {
		return f.field, true
	}
	ty := f.owner
	for k, i := range f.field[:len(f.field)-1] {
		if ty = ty.Field(i).Type; ty == t {
			return f.field[k+1:], true
		}
	}
	return nil, false
}

// Group decodes the options of group T from the values, as Decode does; ok is false when the command has none
// of them (its options struct does not embed T).
func Group[T any](v *Values) (o *T, ok bool, err error) {
	o = new(T)
	if !v.Holds(o) {
		return o, false, nil
	}
	return o, true, v.Decode(o)
}

// Declares reports whether flags include the options of group T (a command's flags, before any are read).
func Declares[T any](flags []Flag) bool {
	t := reflect.TypeOf((*T)(nil)).Elem()
	for _, f := range flags {
		if _, ok := f.in(t); ok {
			return true
		}
	}
	return false
}

// Holds reports whether the values hold options of o's struct type (a pointer to an options struct or group).
func (v *Values) Holds(o any) bool {
	t := structOf(o).Type()
	for _, f := range v.flags {
		if _, ok := f.in(t); ok {
			return true
		}
	}
	return false
}

// Given reports whether the option that field holds was given (on the command line or by a plan) rather than
// left at its default: o points to an options struct or group, field to one of its option fields.
func (v *Values) Given(o, field any) bool { return v.changed[v.FlagOf(o, field).Name] }

// FlagOf is the option field holds: o points to an options struct or group decoded from these values (or of
// their type), field to one of its option fields. A field that is not an option of them is a programming
// error.
func (v *Values) FlagOf(o, field any) Flag {
	sv, fp := structOf(o), reflect.ValueOf(field)
	if fp.Kind() != reflect.Pointer {
		panic(fmt.Sprintf("workload: FlagOf needs a pointer to a field, not %T", field))
	}
	for _, f := range v.flags {
		if path, ok := f.in(sv.Type()); ok {
			if fv := sv.FieldByIndex(path); fv.Addr().Pointer() == fp.Pointer() && fv.Type() == fp.Elem().Type() {
				return f
			}
		}
	}
	panic(fmt.Sprintf("workload: the %s field is not an option of %s here", fp.Elem().Type(), sv.Type()))
}

func structOf(o any) reflect.Value {
	rv := reflect.ValueOf(o)
	if rv.Kind() != reflect.Pointer || rv.Elem().Kind() != reflect.Struct {
		panic(fmt.Sprintf("workload: options must be a pointer to a struct, not %T", o))
	}
	return rv.Elem()
}
