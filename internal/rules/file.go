package rules

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"washboard/internal/domain"
	"washboard/internal/notify"
)

// MaxFileSize is the size of the largest notifications file ParseFile
// reads: 1 MB.
const MaxFileSize = 1 << 20

// maxDepth bounds how deep the file's JSON may nest; the format itself
// nests seven deep.
const maxDepth = 32

// The fields of each object of the file, in the order the errors list them.
var (
	fileFields    = []string{"accounts"}
	accountFields = []string{"account_id", "channels", "rules"}
	ruleFields    = []string{"name", "when", "alert_types", "building_id", "floor_id", "after_minutes", "quiet_hours", "digest_minutes", "channels"}
	quietFields   = []string{"from", "to", "during"}
	byteOrderMark = []byte("\xef\xbb\xbf")
)

// oneObject is what a file holds.
const oneObject = `one JSON object: {"accounts": […]}`

// ParseFile reads a notifications file (see the package documentation for
// its format) and checks it as File.Validate does. Its error is an *Error
// that names the first problem in the file: its line and column, the
// element it is in, and what to change.
func ParseFile(data []byte) (File, error) {
	if len(data) > MaxFileSize {
		return File{}, &Error{Msg: fmt.Sprintf("the file is %d bytes; a notifications file may be at most 1 MB (%d bytes)", len(data), MaxFileSize)}
	}
	root, e := readTree(data)
	if e != nil {
		return File{}, e
	}
	r := reader{data: data}
	f := r.file(root)
	if r.err != nil {
		return File{}, r.err
	}
	if e := f.check(); e != nil {
		return File{}, e.at(data, root.find(e).offset)
	}
	return f, nil
}

// at places e in the file, at the byte offset.
func (e *Error) at(data []byte, offset int) *Error {
	e.Line, e.Column = position(data, offset)
	return e
}

// position is the line and column of the byte at offset, from 1; the
// column counts characters.
func position(data []byte, offset int) (line, column int) {
	before := data[:min(max(offset, 0), len(data))]
	start := bytes.LastIndexByte(before, '\n') + 1
	return bytes.Count(before, []byte{'\n'}) + 1, utf8.RuneCount(before[start:]) + 1
}

// The kinds of JSON value.
type kind int

const (
	kindNull kind = iota
	kindBool
	kindNumber
	kindString
	kindList
	kindObject
)

// String is the kind in words, for errors: "a number".
func (k kind) String() string {
	return [...]string{"null", "true or false", "a number", "a string", "a list […]", "an object {…}"}[k]
}

// node is a JSON value of the file and where it begins.
type node struct {
	offset  int
	kind    kind
	text    string // a string, or a number as written
	members []member
	elems   []*node
}

// member is a field of an object: its name, where the name begins, and
// its value.
type member struct {
	name   string
	offset int
	value  *node
}

// get returns the value of the object's field; nil when the field is left
// out or null.
func (n *node) get(name string) *node {
	if n == nil || n.kind != kindObject {
		return nil
	}
	for _, m := range n.members {
		if m.name == name && m.value.kind != kindNull {
			return m.value
		}
	}
	return nil
}

// find returns the node an error of the file is about: its field, or the
// nearest element or object holding it when the field is left out.
func (n *node) find(e *Error) *node {
	at := n
	for _, s := range e.steps {
		list := at.get(s.list)
		if list == nil || s.index >= len(list.elems) {
			return at
		}
		at = list.elems[s.index]
	}
	if e.Field == "" {
		return at
	}
	for part := range strings.SplitSeq(e.Field, ".") {
		name, index, indexed := strings.Cut(part, "[")
		next := at.get(name)
		if next == nil {
			return at
		}
		at = next
		if indexed {
			i, err := strconv.Atoi(strings.TrimSuffix(index, "]"))
			if err != nil || i >= len(at.elems) {
				return at
			}
			at = at.elems[i]
		}
	}
	return at
}

// readTree reads the file's JSON into nodes that know where they begin.
func readTree(data []byte) (*node, *Error) {
	base := 0
	if bytes.HasPrefix(data, byteOrderMark) {
		base = len(byteOrderMark)
	}
	// Unmarshal reports where a syntax error is more exactly than a
	// Decoder's tokens, and refuses anything after the value.
	if err := json.Unmarshal(data[base:], new(json.RawMessage)); err != nil {
		return nil, syntaxError(data, base, err)
	}
	t := treeReader{dec: json.NewDecoder(bytes.NewReader(data[base:])), data: data, base: base}
	t.dec.UseNumber()
	return t.value(0)
}

// syntaxError says where the file's JSON is not valid.
func syntaxError(data []byte, base int, err error) *Error {
	var se *json.SyntaxError
	if !errors.As(err, &se) {
		return &Error{Msg: "the file is not valid JSON"}
	}
	if se.Error() == "unexpected end of JSON input" {
		content := bytes.TrimRight(data[base:], " \t\r\n")
		if len(content) == 0 {
			return &Error{Msg: "the file is empty; it must hold " + oneObject}
		}
		return (&Error{Msg: `the file ends before its JSON does: a closing "}", "]" or '"' is missing`}).at(data, base+len(content))
	}
	offset := base + max(int(se.Offset)-1, 0)
	var c byte
	if offset < len(data) {
		c = data[offset]
	}
	hint := ""
	switch msg := se.Error(); {
	case strings.Contains(msg, "after object key:value pair"), strings.Contains(msg, "after array element"):
		hint = "; is a comma missing before it?"
	case strings.Contains(msg, "looking for beginning of object key string") && c == '}',
		strings.Contains(msg, "looking for beginning of value") && c == ']':
		hint = "; is there a comma too many before it?"
	case strings.Contains(msg, "looking for beginning of object key string"):
		hint = "; field names are written in double quotes"
	case strings.Contains(msg, "after object key"):
		hint = `; a ":" must follow a field's name`
	case strings.Contains(msg, "after top-level value"):
		hint = "; the file must hold " + oneObject + ", and nothing after it"
	case c == '\'':
		hint = "; strings are written in double quotes"
	}
	return (&Error{Msg: "this is not valid JSON: " + se.Error() + hint}).at(data, offset)
}

// treeReader reads a file's JSON, already checked, into nodes.
type treeReader struct {
	dec  *json.Decoder
	data []byte
	base int
}

// next is the offset in the file of the next value or name.
func (t *treeReader) next() int {
	i := t.base + int(t.dec.InputOffset())
	for i < len(t.data) && strings.IndexByte(" \t\r\n,:", t.data[i]) >= 0 {
		i++
	}
	return i
}

func (t *treeReader) value(depth int) (*node, *Error) {
	n := &node{offset: t.next()}
	if depth > maxDepth {
		return nil, (&Error{Msg: fmt.Sprintf("the JSON nests more than %d levels deep", maxDepth)}).at(t.data, n.offset)
	}
	tok, err := t.dec.Token()
	if err != nil {
		return nil, (&Error{Msg: "this is not valid JSON"}).at(t.data, n.offset)
	}
	switch v := tok.(type) {
	case json.Delim:
		n.kind = kindList
		if v == '{' {
			n.kind = kindObject
		}
		for t.dec.More() {
			m := member{offset: t.next()}
			if n.kind == kindObject {
				name, err := t.dec.Token()
				if err != nil {
					return nil, (&Error{Msg: "this is not valid JSON"}).at(t.data, m.offset)
				}
				m.name, _ = name.(string)
			}
			var e *Error
			if m.value, e = t.value(depth + 1); e != nil {
				return nil, e
			}
			if n.kind == kindObject {
				n.members = append(n.members, m)
			} else {
				n.elems = append(n.elems, m.value)
			}
		}
		if _, err := t.dec.Token(); err != nil {
			return nil, (&Error{Msg: "this is not valid JSON"}).at(t.data, t.next())
		}
	case string:
		n.kind, n.text = kindString, v
	case json.Number:
		n.kind, n.text = kindNumber, v.String()
	case bool:
		n.kind = kindBool
	case nil:
		n.kind = kindNull
	}
	return n, nil
}

// reader turns the file's nodes into the model, keeping the first problem
// of a value's shape: a field it does not know or has twice, a string
// where a number belongs, a time of day or a secret that cannot be read.
// Whether the values make sense is File.Validate's to say.
type reader struct {
	data []byte
	err  *Error
}

// fail keeps the problem of the field at n unless there is one already.
func (r *reader) fail(n *node, field, format string, args ...any) {
	if r.err == nil {
		r.err = problem(field, format, args...).at(r.data, n.offset)
	}
}

// object is an object of the file: an element (field "") or a field of
// one ("webhook", "quiet_hours").
type object struct {
	n     *node
	field string
}

// path is the field name of the object's field for errors:
// "webhook.url", or "name" for a field of the element itself.
func (o object) path(name string) string {
	if o.field == "" {
		return name
	}
	return o.field + "." + name
}

// object checks that n is an object of the allowed fields, each given
// once, and describes it in errors as what: "a rule", `"webhook"`.
func (r *reader) object(n *node, field, what string, allowed []string) object {
	o := object{n: n, field: field}
	if r.err != nil {
		return object{field: field}
	}
	if n.kind != kindObject {
		r.fail(n, field, "%s must be an object {…}, not %s", what, n.kind)
		return object{field: field}
	}
	seen := make([]bool, len(allowed))
	for _, m := range n.members {
		i := indexOf(allowed, m.name)
		switch {
		case i < 0:
			r.err = problem(o.path(m.name), "unknown field %s; the fields of %s are %s", quote(m.name), what, strings.Join(allowed, ", ")).at(r.data, m.offset)
			return object{field: field}
		case seen[i]:
			r.err = problem(o.path(m.name), "the field %s is given twice", quote(m.name)).at(r.data, m.offset)
			return object{field: field}
		}
		seen[i] = true
	}
	return o
}

func indexOf(xs []string, x string) int {
	for i, s := range xs {
		if s == x {
			return i
		}
	}
	return -1
}

// field returns the value of the object's field, nil when it is left out,
// null, or after a problem.
func (r *reader) field(o object, name string) *node {
	if r.err != nil {
		return nil
	}
	return o.n.get(name)
}

// has reports whether the object gives the field, not null.
func (r *reader) has(o object, name string) bool { return r.field(o, name) != nil }

// str returns the field's string; "" when it is left out.
func (r *reader) str(o object, name string) string {
	n := r.field(o, name)
	if n == nil {
		return ""
	}
	if n.kind != kindString {
		r.fail(n, o.path(name), "%q must be a string in double quotes, not %s", name, n.kind)
		return ""
	}
	return n.text
}

// integer returns the field's whole number; 0 when it is left out.
func (r *reader) integer(o object, name string) int {
	n := r.field(o, name)
	if n == nil {
		return 0
	}
	if n.kind != kindNumber {
		r.fail(n, o.path(name), "%q must be a whole number, not %s", name, n.kind)
		return 0
	}
	v, err := strconv.Atoi(n.text)
	if err != nil {
		r.fail(n, o.path(name), "%q must be a whole number, not %s", name, shorten(n.text))
		return 0
	}
	return v
}

// list returns the elements of the field's list; none when it is left out.
func (r *reader) list(o object, name string) []*node {
	n := r.field(o, name)
	if n == nil {
		return nil
	}
	if n.kind != kindList {
		r.fail(n, o.path(name), "%q must be a list […], not %s", name, n.kind)
		return nil
	}
	return n.elems
}

// strs returns the strings of the field's list; none when it is left out.
func (r *reader) strs(o object, name string) []string {
	elems := r.list(o, name)
	out := make([]string, 0, len(elems))
	for i, n := range elems {
		if n.kind != kindString {
			r.fail(n, fmt.Sprintf("%s[%d]", o.path(name), i), "%q must list strings in double quotes; %s[%d] is %s", name, name, i, n.kind)
			return nil
		}
		out = append(out, n.text)
	}
	if len(elems) == 0 {
		return nil
	}
	return out
}

func (r *reader) file(root *node) File {
	if root.kind != kindObject {
		r.err = (&Error{Msg: "the file must hold " + oneObject + ", not " + root.kind.String()}).at(r.data, root.offset)
		return File{}
	}
	o := r.object(root, "", "the file", fileFields)
	if r.err == nil && !r.has(o, "accounts") {
		r.fail(root, "accounts", `the file needs "accounts", the list of accounts with their channels and rules`)
	}
	var f File
	for i, n := range r.list(o, "accounts") {
		id := n.get("account_id")
		a := r.account(n)
		if r.err != nil {
			name := ""
			if id != nil && id.kind == kindString {
				name = id.text
			}
			r.err.within("accounts", i, name)
			return File{}
		}
		f.Accounts = append(f.Accounts, a)
	}
	return f
}

func (r *reader) account(n *node) Account {
	o := r.object(n, "", "an account", accountFields)
	a := Account{AccountID: r.str(o, "account_id")}
	for i, cn := range r.list(o, "channels") {
		c := r.channel(cn)
		if r.err != nil {
			r.err.within("channels", i, nameOf(cn))
			return Account{}
		}
		a.Channels = append(a.Channels, c)
	}
	for i, rn := range r.list(o, "rules") {
		rule := r.rule(rn)
		if r.err != nil {
			r.err.within("rules", i, nameOf(rn))
			return Account{}
		}
		a.Rules = append(a.Rules, rule)
	}
	return a
}

// nameOf is the name of a channel or a rule for an error's path; "" when
// it has none.
func nameOf(n *node) string {
	if v := n.get("name"); v != nil && v.kind == kindString {
		return v.text
	}
	return ""
}

func (r *reader) channel(n *node) Channel {
	o := r.object(n, "", "a channel", channelFields())
	c := Channel{Name: r.str(o, "name"), Language: r.str(o, "language")}
	for _, k := range notify.ChannelKinds() {
		if !r.has(o, k.Name) {
			continue
		}
		if c.Settings != nil {
			r.fail(r.field(o, k.Name), k.Name, `has both %s and %s; a channel is one or the other`, strconv.Quote(c.Settings.Kind()), strconv.Quote(k.Name))
			return c
		}
		c.Settings = r.settings(k, r.field(o, k.Name))
	}
	return c
}

// channelFields are the fields of a channel: its name, and a field for
// each kind of channel.
func channelFields() []string {
	fields := []string{"name", "language"}
	for _, k := range notify.ChannelKinds() {
		fields = append(fields, k.Name)
	}
	return fields
}

// settings reads a channel's settings of the kind, from the object n, as
// the kind reads them (notify.ChannelKind.ReadFile). Its errors never
// repeat a secret.
func (r *reader) settings(k notify.ChannelKind, n *node) notify.ChannelSettings {
	o := r.object(n, k.Name, strconv.Quote(k.Name), k.FileFields)
	if r.err != nil {
		return nil
	}
	s, err := k.ReadFile(fileObject{r, o})
	if err != nil && r.err == nil {
		field, at := k.Name, n
		var fe *notify.FieldError
		if errors.As(err, &fe) && fe.Field != "" {
			field += "." + fe.Field
			name, _, _ := strings.Cut(fe.Field, "[")
			if v := o.n.get(name); v != nil {
				at = v
			}
		}
		r.fail(at, field, "%s", err.Error())
	}
	return s
}

// fileObject is a kind's object of the file, as the kind reads it.
type fileObject struct {
	r *reader
	o object
}

func (f fileObject) Has(field string) bool         { return f.r.has(f.o, field) }
func (f fileObject) String(field string) string    { return f.r.str(f.o, field) }
func (f fileObject) Strings(field string) []string { return f.r.strs(f.o, field) }

func (r *reader) rule(n *node) Rule {
	o := r.object(n, "", "a rule", ruleFields)
	rule := Rule{
		Name:       r.str(o, "name"),
		When:       notify.Kind(r.str(o, "when")),
		BuildingID: r.str(o, "building_id"),
		FloorID:    r.str(o, "floor_id"),
	}
	for _, t := range r.strs(o, "alert_types") {
		rule.AlertTypes = append(rule.AlertTypes, domain.AlertType(t))
	}
	rule.AfterMinutes = r.integer(o, "after_minutes")
	if r.has(o, "quiet_hours") {
		rule.QuietHours = r.quietHours(r.field(o, "quiet_hours"))
	}
	rule.DigestMinutes = r.integer(o, "digest_minutes")
	rule.Channels = r.strs(o, "channels")
	return rule
}

func (r *reader) quietHours(n *node) *QuietHours {
	o := r.object(n, "quiet_hours", `"quiet_hours"`, quietFields)
	q := &QuietHours{During: QuietHold}
	for _, name := range []string{"from", "to"} {
		if r.err == nil && !r.has(o, name) {
			r.fail(n, o.path(name), `"quiet_hours" needs %q, a time of day written HH:MM`, name)
		}
		v := r.field(o, name)
		text := r.str(o, name)
		if r.err != nil {
			return nil
		}
		minutes, err := ParseTimeOfDay(text)
		if err != nil {
			r.fail(v, o.path(name), "%q must be a time of day: %v", name, err)
			return nil
		}
		if name == "from" {
			q.From = minutes
		} else {
			q.To = minutes
		}
	}
	if n := r.field(o, "during"); n != nil {
		q.During = QuietAction(r.str(o, "during"))
		// The model takes an empty action for hold; a file says which.
		if r.err == nil && q.During == "" {
			r.fail(n, o.path("during"), `"during" must be %s or %s, not ""`, QuietHold, QuietDrop)
		}
	}
	return q
}
