package script

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// The expression language of pgbench's \set and \if: integers (64-bit), doubles, booleans and NULL; the
// operators + - * / % (integer division truncates, % takes integers), comparisons, AND OR NOT, the bitwise
// & | # ~ << >>, IS [NOT] NULL/TRUE/FALSE, CASE WHEN ... THEN ... [ELSE ...] END, :variables and the functions
// below. Precedence and typing follow pgbench's exprparse.y and evalStandardFunc.

type kind int

const (
	kNull kind = iota
	kBool
	kInt
	kDouble
	kString // a -D value or a \gset column not read as a number
)

type value struct {
	k kind
	i int64
	f float64
	s string
}

func intv(i int64) value    { return value{k: kInt, i: i} }
func dblv(f float64) value  { return value{k: kDouble, f: f} }
func boolv(b bool) value    { return value{k: kBool, i: b2i(b)} }
func strv(s string) value   { return value{k: kString, s: s} }
func (v value) truth() bool { return v.i != 0 }

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// debugText is the value as pgbench's debug() prints it: "int 4", "double 15", "boolean true", "null".
func (v value) debugText() string {
	switch v.k {
	case kNull:
		return "null"
	case kBool:
		return "boolean " + v.text()
	case kInt:
		return "int " + v.text()
	case kDouble:
		return "double " + v.text()
	}
	return "string " + v.s
}

// text is the value as pgbench writes it into a statement: integers in decimal, doubles with 15 significant
// digits, true/false, NULL.
func (v value) text() string {
	switch v.k {
	case kNull:
		return "NULL"
	case kBool:
		if v.truth() {
			return "true"
		}
		return "false"
	case kInt:
		return strconv.FormatInt(v.i, 10)
	case kDouble:
		return strconv.FormatFloat(v.f, 'g', 15, 64)
	}
	return v.s
}

// arg is the value as a bind parameter.
func (v value) arg() any {
	switch v.k {
	case kNull:
		return nil
	case kBool:
		return v.truth()
	case kInt:
		return v.i
	case kDouble:
		return v.f
	}
	return v.s
}

// parseText reads a -D value or a fetched column as pgbench does (makeVariableValue): an integer, a double,
// a boolean, else a string.
func parseText(s string) value {
	t := strings.TrimSpace(s)
	low := strings.ToLower(t)
	// in pgbench's order: NULL, then any prefix of true or yes (and on), of false or no (and off, of): "o"
	// alone is neither; then an integer, then a double
	prefix := func(word string) bool { return low != "" && strings.HasPrefix(word, low) }
	switch {
	case low == "null":
		return value{}
	case prefix("true") || prefix("yes") || low == "on":
		return boolv(true)
	case prefix("false") || prefix("no") || low == "off" || low == "of":
		return boolv(false)
	}
	if i, err := strconv.ParseInt(t, 10, 64); err == nil {
		return intv(i)
	}
	if f, err := strconv.ParseFloat(t, 64); err == nil && t != "" && !strings.ContainsAny(t, "nN") {
		return dblv(f)
	}
	return strv(s)
}

// numeric coerces a value for arithmetic: a string becomes the number it spells (else an error).
func (v value) numeric(op string) (value, error) {
	switch v.k {
	case kInt, kDouble:
		return v, nil
	case kBool:
		return intv(v.i), nil
	case kString:
		if n := parseText(v.s); n.k == kInt || n.k == kDouble {
			return n, nil
		}
		return v, fmt.Errorf("%s: %q is not a number", op, v.s)
	}
	return v, fmt.Errorf("%s: NULL is not a number", op)
}

func (v value) toInt(op string) (int64, error) {
	n, err := v.numeric(op)
	if err != nil {
		return 0, err
	}
	if n.k == kDouble {
		f := math.RoundToEven(n.f) // pgbench's coerceToInt: rint, the nearest integer (halves to even)
		if math.IsNaN(f) || f < -9.2233720368547758e18 || f >= 9.2233720368547758e18 {
			return 0, fmt.Errorf("%s: %g is out of the integer range", op, n.f)
		}
		return int64(f), nil
	}
	return n.i, nil
}

func (v value) toDouble(op string) (float64, error) {
	n, err := v.numeric(op)
	if err != nil {
		return 0, err
	}
	if n.k == kInt {
		return float64(n.i), nil
	}
	return n.f, nil
}

func (v value) toBool(op string) (bool, error) {
	switch v.k {
	case kBool, kInt:
		return v.i != 0, nil
	case kDouble:
		return v.f != 0, nil
	case kString:
		b := parseText(v.s)
		if b.k != kString && b.k != kNull {
			return b.toBool(op)
		}
		return false, fmt.Errorf("%s: %q is not a boolean", op, v.s)
	}
	return false, fmt.Errorf("%s: NULL is not a boolean", op)
}

// env is what an expression reads and draws from.
type env interface {
	lookup(name string) (value, bool)
	rng() *randSource
	debug(v value) // debug()'s line, as pgbench prints it
}

type node interface {
	eval(e env) (value, error)
}

type (
	lit   struct{ v value }
	vref  struct{ name string }
	unary struct {
		op string
		x  node
	}
	binary struct {
		op   string
		l, r node
	}
	call struct {
		fn   string
		args []node
	}
	caseExpr struct {
		conds, thens []node
		els          node
	}
	isExpr struct {
		x    node
		not  bool
		what string // null, true, false
	}
)

func (n lit) eval(env) (value, error) { return n.v, nil }

func (n vref) eval(e env) (value, error) {
	v, ok := e.lookup(n.name)
	if !ok {
		return v, fmt.Errorf("undefined variable :%s", n.name)
	}
	return v, nil
}

func (n unary) eval(e env) (value, error) {
	x, err := n.x.eval(e)
	if err != nil {
		return x, err
	}
	switch n.op {
	case "not":
		b, err := x.toBool("NOT")
		return boolv(!b), err
	case "~":
		i, err := x.toInt("~")
		return intv(^i), err
	case "+":
		return x.numeric("+")
	}
	x, err = x.numeric("-")
	if err != nil {
		return x, err
	}
	if x.k == kDouble {
		return dblv(-x.f), nil
	}
	if x.i == math.MinInt64 {
		return x, fmt.Errorf("bigint out of range")
	}
	return intv(-x.i), nil
}

func (n isExpr) eval(e env) (value, error) {
	x, err := n.x.eval(e)
	if err != nil {
		return x, err
	}
	var r bool
	switch n.what {
	case "null":
		r = x.k == kNull
	case "true":
		r = x.k != kNull && x.truth()
	case "false":
		r = x.k != kNull && !x.truth()
	}
	return boolv(r != n.not), nil
}

func (n caseExpr) eval(e env) (value, error) {
	for i, c := range n.conds {
		v, err := c.eval(e)
		if err != nil {
			return v, err
		}
		if v.k != kNull {
			b, err := v.toBool("CASE")
			if err != nil {
				return v, err
			}
			if b {
				return n.thens[i].eval(e)
			}
		}
	}
	if n.els == nil {
		return value{}, nil
	}
	return n.els.eval(e)
}

func (n binary) eval(e env) (value, error) {
	l, err := n.l.eval(e)
	if err != nil {
		return l, err
	}
	switch n.op { // the logical operators short-circuit, NULL as pgbench's three-valued logic
	case "and", "or":
		if l.k == kNull {
			if n.op == "and" {
				return value{}, nil // pgbench: NULL AND x is NULL
			}
			return n.r.eval(e)
		}
		lb, err := l.toBool(strings.ToUpper(n.op))
		if err != nil {
			return l, err
		}
		if n.op == "and" && !lb || n.op == "or" && lb {
			return boolv(lb), nil
		}
		r, err := n.r.eval(e)
		if err != nil || r.k == kNull {
			return r, err
		}
		rb, err := r.toBool(strings.ToUpper(n.op))
		return boolv(rb), err
	}
	r, err := n.r.eval(e)
	if err != nil {
		return r, err
	}
	if l.k == kNull || r.k == kNull {
		return value{}, nil // NULL propagates
	}
	switch n.op {
	case "&", "|", "#", "<<", ">>", "%":
		a, err := l.toInt(n.op)
		if err != nil {
			return l, err
		}
		b, err := r.toInt(n.op)
		if err != nil {
			return r, err
		}
		switch n.op {
		case "&":
			return intv(a & b), nil
		case "|":
			return intv(a | b), nil
		case "#":
			return intv(a ^ b), nil
		case "<<":
			return intv(a << uint64(b&63)), nil
		case ">>":
			return intv(a >> uint64(b&63)), nil
		}
		if b == 0 {
			return l, fmt.Errorf("division by zero")
		}
		if b == -1 {
			return intv(0), nil
		}
		return intv(a % b), nil
	}
	if l, err = l.numeric(n.op); err != nil {
		return l, err
	}
	if r, err = r.numeric(n.op); err != nil {
		return r, err
	}
	if l.k == kInt && r.k == kInt {
		a, b := l.i, r.i
		switch n.op {
		case "+":
			s := a + b
			if (a > 0 && b > 0 && s < 0) || (a < 0 && b < 0 && s >= 0) {
				return l, fmt.Errorf("bigint out of range")
			}
			return intv(s), nil
		case "-":
			s := a - b
			if (a >= 0 && b < 0 && s < 0) || (a < 0 && b > 0 && s >= 0) {
				return l, fmt.Errorf("bigint out of range")
			}
			return intv(s), nil
		case "*":
			if a != 0 && ((a*b)/a != b || (a == -1 && b == math.MinInt64) || (b == -1 && a == math.MinInt64)) {
				return l, fmt.Errorf("bigint out of range")
			}
			return intv(a * b), nil
		case "/":
			if b == 0 {
				return l, fmt.Errorf("division by zero")
			}
			if b == -1 {
				if a == math.MinInt64 {
					return l, fmt.Errorf("bigint out of range")
				}
				return intv(-a), nil
			}
			return intv(a / b), nil
		}
		return boolv(compare(n.op, float64(cmp64(a, b)))), nil
	}
	a, _ := l.toDouble(n.op)
	b, _ := r.toDouble(n.op)
	switch n.op {
	case "+":
		return dblv(a + b), nil
	case "-":
		return dblv(a - b), nil
	case "*":
		return dblv(a * b), nil
	case "/":
		return dblv(a / b), nil // pgbench divides doubles as C does: 1.0/0 is Infinity (integers refuse it)
	}
	return boolv(compare(n.op, a-b)), nil
}

func cmp64(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func compare(op string, d float64) bool {
	switch op {
	case "=":
		return d == 0
	case "<>", "!=":
		return d != 0
	case "<":
		return d < 0
	case "<=":
		return d <= 0
	case ">":
		return d > 0
	}
	return d >= 0 // >=
}

// functions: name -> arity (-1: one or more).
var functions = map[string]int{
	"abs": 1, "debug": 1, "double": 1, "exp": 1, "greatest": -1, "int": 1, "least": -1, "ln": 1, "mod": 2, "pi": 0,
	"pow": 2, "power": 2, "random": 2, "hash": 2, "hash_murmur2": 2, "hash_fnv1a": 2, "permute": 3, "random_exponential": 3, "random_gaussian": 3, "random_zipfian": 3, "sqrt": 1,
}

func (n call) eval(e env) (value, error) {
	args := make([]value, len(n.args))
	for i, a := range n.args {
		v, err := a.eval(e)
		if err != nil {
			return v, err
		}
		args[i] = v
	}
	if n.fn != "debug" {
		for _, a := range args {
			if a.k == kNull {
				return value{}, nil // pgbench: a NULL argument makes the function's value NULL (exp(NULL))
			}
		}
	}
	dbl := func(i int) (float64, error) { return args[i].toDouble(n.fn) }
	in := func(i int) (int64, error) { return args[i].toInt(n.fn) }
	switch n.fn {
	case "pi":
		return dblv(math.Pi), nil
	case "debug":
		e.debug(args[0])
		return args[0], nil
	case "abs":
		x, err := args[0].numeric(n.fn)
		if x.k == kInt {
			if x.i == math.MinInt64 {
				return x, fmt.Errorf("bigint out of range")
			}
			if x.i < 0 {
				x.i = -x.i
			}
			return x, err
		}
		return dblv(math.Abs(x.f)), err
	case "double":
		f, err := dbl(0)
		return dblv(f), err
	case "int":
		i, err := in(0)
		return intv(i), err
	case "least", "greatest":
		allInt := true
		for _, a := range args {
			x, err := a.numeric(n.fn)
			if err != nil {
				return x, err
			}
			allInt = allInt && x.k == kInt
		}
		if allInt {
			best, _ := in(0)
			for i := range args[1:] {
				v, _ := in(i + 1)
				if n.fn == "least" && v < best || n.fn == "greatest" && v > best {
					best = v
				}
			}
			return intv(best), nil
		}
		best, _ := dbl(0)
		for i := range args[1:] {
			v, _ := dbl(i + 1)
			if n.fn == "least" && v < best || n.fn == "greatest" && v > best {
				best = v
			}
		}
		return dblv(best), nil
	case "exp", "ln", "sqrt":
		f, err := dbl(0)
		if err != nil {
			return value{}, err
		}
		switch n.fn {
		case "exp":
			return dblv(math.Exp(f)), nil
		case "ln":
			return dblv(math.Log(f)), nil
		}
		return dblv(math.Sqrt(f)), nil
	case "pow", "power":
		a, err := dbl(0)
		if err != nil {
			return value{}, err
		}
		b, err := dbl(1)
		return dblv(math.Pow(a, b)), err
	case "hash", "hash_murmur2", "hash_fnv1a", "permute":
		return seeded(n.fn, args)
	case "mod":
		a, err := in(0)
		if err != nil {
			return value{}, err
		}
		b, err := in(1)
		if err != nil {
			return value{}, err
		}
		if b == 0 {
			return value{}, fmt.Errorf("division by zero")
		}
		if b == -1 {
			return intv(0), nil
		}
		return intv(a % b), nil
	}
	// the random functions
	lo, err := in(0)
	if err != nil {
		return value{}, err
	}
	hi, err := in(1)
	if err != nil {
		return value{}, err
	}
	if hi < lo {
		return value{}, fmt.Errorf("%s: empty range [%d, %d]", n.fn, lo, hi)
	}
	if hi-lo < 0 || hi-lo == math.MaxInt64 {
		return value{}, fmt.Errorf("%s: range too large", n.fn)
	}
	r := e.rng()
	if n.fn == "random" {
		return intv(r.uniform(lo, hi)), nil
	}
	p, err := dbl(2)
	if err != nil {
		return value{}, err
	}
	switch n.fn {
	case "random_exponential":
		if p <= 0 {
			return value{}, fmt.Errorf("random_exponential: parameter must be greater than 0 (got %g)", p)
		}
		return intv(r.exponential(lo, hi, p)), nil
	case "random_gaussian":
		if p < minGaussian {
			return value{}, fmt.Errorf("random_gaussian: parameter must be at least %g (got %g)", minGaussian, p)
		}
		return intv(r.gaussian(lo, hi, p)), nil
	}
	if p < minZipfian || p > maxZipfian {
		return value{}, fmt.Errorf("random_zipfian: parameter must be in [%g, %g] (got %g)", minZipfian, maxZipfian, p)
	}
	return intv(r.zipfian(lo, hi, p)), nil
}

// --- parsing ---

type token struct {
	k   byte // 'n' number, 'i' identifier/keyword, 'v' :variable, 'o' operator, 0 end
	s   string
	pos int
}

func lex(src string) ([]token, error) {
	var out []token
	i := 0
	for i < len(src) {
		c := src[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case c >= '0' && c <= '9' || c == '.' && i+1 < len(src) && src[i+1] >= '0' && src[i+1] <= '9':
			j := i
			for j < len(src) && (src[j] >= '0' && src[j] <= '9' || src[j] == '.') {
				j++
			}
			if j < len(src) && (src[j] == 'e' || src[j] == 'E') {
				k := j + 1
				if k < len(src) && (src[k] == '+' || src[k] == '-') {
					k++
				}
				if k < len(src) && src[k] >= '0' && src[k] <= '9' {
					for j = k; j < len(src) && src[j] >= '0' && src[j] <= '9'; j++ {
					}
				}
			}
			out = append(out, token{'n', src[i:j], i})
			i = j
		case c == ':':
			j := i + 1
			for j < len(src) && isNameByte(src[j]) {
				j++
			}
			if j == i+1 {
				return nil, fmt.Errorf("':' not followed by a variable name at column %d", i+1)
			}
			out = append(out, token{'v', src[i+1 : j], i})
			i = j
		case isNameByte(c):
			j := i
			for j < len(src) && isNameByte(src[j]) {
				j++
			}
			out = append(out, token{'i', strings.ToLower(src[i:j]), i})
			i = j
		default:
			op := string(c)
			if i+1 < len(src) {
				switch two := src[i : i+2]; two {
				case "<=", ">=", "<>", "!=", "<<", ">>":
					op = two
				}
			}
			if !strings.Contains("+-*/%()=<>,&|#~", op[:1]) && op != "!=" {
				return nil, fmt.Errorf("unexpected character %q at column %d", c, i+1)
			}
			out = append(out, token{'o', op, i})
			i += len(op)
		}
	}
	return append(out, token{0, "", len(src)}), nil
}

func isNameByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}

type parser struct {
	toks []token
	p    int
	vars map[string]bool // the variables the expression reads
}

// parseExpr parses one expression; vars collects the variables it reads.
func parseExpr(src string, vars map[string]bool) (node, error) {
	toks, err := lex(src)
	if err != nil {
		return nil, err
	}
	ps := &parser{toks: toks, vars: vars}
	n, err := ps.expr(0)
	if err != nil {
		return nil, err
	}
	if t := ps.peek(); t.k != 0 {
		return nil, fmt.Errorf("unexpected %q at column %d", t.s, t.pos+1)
	}
	return n, nil
}

func (ps *parser) peek() token { return ps.toks[ps.p] }
func (ps *parser) next() token { t := ps.toks[ps.p]; ps.p++; return t }
func (ps *parser) is(k byte, s string) bool {
	t := ps.peek()
	return t.k == k && t.s == s
}

// binary operators' precedence (higher binds tighter), as pgbench's grammar.
func prec(t token) int {
	switch {
	case t.k == 'i' && t.s == "or":
		return 1
	case t.k == 'i' && t.s == "and":
		return 2
	case t.k == 'i' && (t.s == "is" || t.s == "isnull" || t.s == "notnull"):
		return 4
	case t.k != 'o':
		return 0
	}
	switch t.s {
	case "=", "<>", "!=", "<", "<=", ">", ">=":
		return 5
	case "|", "#", "&", "<<", ">>":
		return 6
	case "+", "-":
		return 7
	case "*", "/", "%":
		return 8
	}
	return 0
}

func (ps *parser) expr(min int) (node, error) {
	l, err := ps.unary()
	if err != nil {
		return nil, err
	}
	for {
		t := ps.peek()
		p := prec(t)
		if p == 0 || p <= min {
			return l, nil
		}
		ps.next()
		switch {
		case t.s == "isnull" || t.s == "notnull":
			l = isExpr{x: l, not: t.s == "notnull", what: "null"}
			continue
		case t.s == "is":
			not := false
			if ps.is('i', "not") {
				ps.next()
				not = true
			}
			w := ps.next()
			if w.k != 'i' || (w.s != "null" && w.s != "true" && w.s != "false") {
				return nil, fmt.Errorf("IS must be followed by [NOT] NULL, TRUE or FALSE at column %d", w.pos+1)
			}
			l = isExpr{x: l, not: not, what: w.s}
			continue
		}
		r, err := ps.expr(p)
		if err != nil {
			return nil, err
		}
		l = binary{op: t.s, l: l, r: r}
	}
}

func (ps *parser) unary() (node, error) {
	t := ps.next()
	switch {
	case t.k == 'o' && t.s == "-" && ps.peek().k == 'n' && ps.peek().s == "9223372036854775808":
		ps.next() // pgbench's lexer reads -9223372036854775808 as the least integer, not as a double
		return lit{intv(math.MinInt64)}, nil
	case t.k == 'o' && (t.s == "-" || t.s == "+" || t.s == "~"):
		x, err := ps.unary()
		if err != nil {
			return nil, err
		}
		if l, ok := x.(lit); ok && t.s == "-" { // fold negative constants
			if v, err := (unary{op: "-", x: l}).eval(nil); err == nil {
				return lit{v}, nil
			}
		}
		return unary{op: t.s, x: x}, nil
	case t.k == 'i' && t.s == "not":
		x, err := ps.expr(3)
		if err != nil {
			return nil, err
		}
		return unary{op: "not", x: x}, nil
	case t.k == 'n':
		if i, err := strconv.ParseInt(t.s, 10, 64); err == nil {
			return lit{intv(i)}, nil
		}
		f, err := strconv.ParseFloat(t.s, 64)
		if err != nil {
			return nil, fmt.Errorf("bad number %q at column %d", t.s, t.pos+1)
		}
		return lit{dblv(f)}, nil
	case t.k == 'v':
		ps.vars[t.s] = true
		return vref{t.s}, nil
	case t.k == 'o' && t.s == "(":
		x, err := ps.expr(0)
		if err != nil {
			return nil, err
		}
		if !ps.is('o', ")") {
			return nil, fmt.Errorf("missing ) at column %d", ps.peek().pos+1)
		}
		ps.next()
		return x, nil
	case t.k == 'i':
		switch t.s {
		case "true", "false":
			return lit{boolv(t.s == "true")}, nil
		case "null":
			return lit{}, nil
		case "case":
			return ps.caseExpr()
		}
		if !ps.is('o', "(") {
			return nil, fmt.Errorf("unexpected word %q at column %d (a variable is written :%s)", t.s, t.pos+1, t.s)
		}
		ps.next()
		arity, ok := functions[t.s]
		if !ok {
			return nil, fmt.Errorf("unknown function %s() at column %d (supported: %s)", t.s, t.pos+1, functionList())
		}
		var args []node
		for !ps.is('o', ")") {
			a, err := ps.expr(0)
			if err != nil {
				return nil, err
			}
			args = append(args, a)
			if ps.is('o', ",") {
				ps.next()
				continue
			}
			if !ps.is('o', ")") {
				return nil, fmt.Errorf("expected , or ) in %s() at column %d", t.s, ps.peek().pos+1)
			}
		}
		ps.next()
		if optionalSeed[t.s] && len(args) == arity-1 { // pgbench's default: the seed :default_seed
			args = append(args, vref{"default_seed"})
			ps.vars["default_seed"] = true
		}
		if arity >= 0 && len(args) != arity || arity < 0 && len(args) == 0 {
			want := arityText(arity)
			if optionalSeed[t.s] {
				want = fmt.Sprintf("%d or %d", arity-1, arity)
			}
			return nil, fmt.Errorf("%s() takes %s argument(s), got %d", t.s, want, len(args))
		}
		return call{fn: t.s, args: args}, nil
	case t.k == 0:
		return nil, fmt.Errorf("unexpected end of expression")
	}
	return nil, fmt.Errorf("unexpected %q at column %d", t.s, t.pos+1)
}

func (ps *parser) caseExpr() (node, error) {
	var c caseExpr
	for ps.is('i', "when") {
		ps.next()
		cond, err := ps.expr(0)
		if err != nil {
			return nil, err
		}
		if !ps.is('i', "then") {
			return nil, fmt.Errorf("CASE: WHEN without THEN at column %d", ps.peek().pos+1)
		}
		ps.next()
		then, err := ps.expr(0)
		if err != nil {
			return nil, err
		}
		c.conds, c.thens = append(c.conds, cond), append(c.thens, then)
	}
	if len(c.conds) == 0 {
		return nil, fmt.Errorf("CASE without WHEN")
	}
	if ps.is('i', "else") {
		ps.next()
		e, err := ps.expr(0)
		if err != nil {
			return nil, err
		}
		c.els = e
	}
	if !ps.is('i', "end") {
		return nil, fmt.Errorf("CASE without END at column %d", ps.peek().pos+1)
	}
	ps.next()
	return c, nil
}

func arityText(a int) string {
	if a < 0 {
		return "one or more"
	}

	return strconv.Itoa(a)
}

func functionList() string {
	return "abs, debug, double, exp, greatest, hash, hash_fnv1a, hash_murmur2, int, least, ln, mod, permute, pi, pow, power, random, random_exponential, random_gaussian, random_zipfian, sqrt"
}

// optionalSeed are the functions whose last argument, the seed, may be left out (pgbench then passes
// :default_seed).
var optionalSeed = map[string]bool{"hash": true, "hash_murmur2": true, "hash_fnv1a": true, "permute": true}

// seeded evaluates pgbench's hash functions (hash is hash_murmur2) and permute, their seed the last argument.
func seeded(fn string, args []value) (value, error) {
	ints := make([]int64, len(args))
	for i, a := range args {
		v, err := a.toInt(fn)
		if err != nil {
			return value{}, err
		}
		ints[i] = v
	}
	seed := uint64(ints[len(ints)-1])
	switch fn {
	case "hash", "hash_murmur2":
		return intv(hashMurmur2(ints[0], seed)), nil
	case "hash_fnv1a":
		return intv(hashFNV1a(ints[0], seed)), nil
	}
	if ints[1] <= 0 {
		return value{}, fmt.Errorf("permute: size must be greater than zero (got %d)", ints[1])
	}
	return intv(permute(ints[0], ints[1], seed)), nil
}
