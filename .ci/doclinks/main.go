// Doclinks is the doc-text gate of .ci/run: it reads the comments of the
// packages given, and Markdown files, and fails when a doc link ([Name],
// [Type.Method], [pkg.Name]) or a name qualified by a package of retrykit
// in plain text (retrytest.Policy, fakeclock.Clock.Step, in backquotes or
// not) names nothing, so that neither godoc nor a README shows a stale
// name.
//
// Usage, from the module root:
//
//	go run ./.ci/doclinks [-refs pattern] [-md files] ./...
//
// The arguments are go list patterns. A link is resolved as go/doc
// resolves it: [Name] and [Type.Member] against the package's own
// declarations (types, functions, methods, struct fields, interface
// methods, constants and variables), [pkg.Name] against the package the
// file imports under that name, when it is a package listed. Links into
// other modules are not checked. Test files are skipped.
//
// A plain pkg.Name or pkg.Type.Member, in any comment of the packages and
// in every Markdown file that -md names (comma-separated globs), is
// checked when pkg is the name of a package that -refs lists (a go list
// pattern: github.com/retrykit/retrykit/... from a nested module) but the
// patterns do not, or of one the patterns list when -refs is not given: Name must be declared there, and Member too when Name is a type
// (a member of a value, fakeclock.Epoch.Add, is not checked). Names of the
// standard library and of other modules are not checked.
//
// Every stale name is printed as file:line: [link] or file:line: name; the
// exit status is 1 when there is one, 2 when the packages cannot be read.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"go/ast"
	"go/doc/comment"
	"go/parser"
	"go/token"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
)

func main() {
	fs := flag.NewFlagSet("doclinks", flag.ExitOnError)
	refs := fs.String("refs", "", "go list pattern of more packages whose names qualify plain-text names")
	md := fs.String("md", "", "comma-separated globs of Markdown files to check for plain-text names")
	fs.Parse(os.Args[1:])
	n, err := runWith(os.Stdout, options{patterns: fs.Args(), refs: *refs, md: *md})
	if err != nil {
		fmt.Fprintln(os.Stderr, "doclinks:", err)
		os.Exit(2)
	}
	if n > 0 {
		fmt.Fprintf(os.Stderr, "doclinks: %d stale names in doc text\n", n)
		os.Exit(1)
	}
}

// options are the command's arguments.
type options struct {
	patterns []string
	refs     string // go list pattern
	md       string // comma-separated globs
}

// pkg is one package of the module, as go list describes it.
type pkg struct {
	ImportPath string
	Name       string
	Dir        string
	GoFiles    []string
}

// run checks the packages matching patterns and prints each dangling link
// to w; it returns how many it found.
func run(w io.Writer, patterns []string) (int, error) {
	return runWith(w, options{patterns: patterns})
}

// runWith is run with every option.
func runWith(w io.Writer, o options) (int, error) {
	patterns := o.patterns
	if len(patterns) == 0 {
		patterns = []string{"./..."}
	}
	pkgs, err := list(patterns)
	if err != nil {
		return 0, err
	}
	// Plain-text names are qualified by the packages -refs lists, or by
	// those the patterns list when it is not given: a nested module's own
	// packages may be named after the library they wrap (retryablehttp),
	// whose names are not ours to check.
	named := pkgs
	if o.refs != "" {
		more, err := list([]string{o.refs})
		if err != nil {
			return 0, err
		}
		named = nil
		for _, p := range more {
			if !slices.ContainsFunc(pkgs, func(q *pkg) bool { return q.ImportPath == p.ImportPath }) {
				named = append(named, p)
			}
		}
	}
	byPath := map[string]*pkg{}
	for _, p := range append(slicesClone(pkgs), named...) {
		if _, dup := byPath[p.ImportPath]; !dup {
			byPath[p.ImportPath] = p
		}
	}
	byName := map[string][]*pkg{} // package name -> packages, for plain-text names
	for _, p := range named {
		if p.Name != "main" && !slices.Contains(byName[p.Name], byPath[p.ImportPath]) {
			byName[p.Name] = append(byName[p.Name], byPath[p.ImportPath])
		}
	}
	syms := map[string]map[string]bool{} // import path -> symbols
	symbols := func(p *pkg) (map[string]bool, error) {
		if s, ok := syms[p.ImportPath]; ok {
			return s, nil
		}
		files, err := parse(token.NewFileSet(), p)
		if err != nil {
			return nil, err
		}
		s := declared(files)
		syms[p.ImportPath] = s
		return s, nil
	}
	var found []string
	for _, p := range pkgs {
		fset := token.NewFileSet()
		files, err := parse(fset, p)
		if err != nil {
			return 0, err
		}
		own, err := symbols(p)
		if err != nil {
			return 0, err
		}
		for _, f := range files {
			imports := importNames(f)
			for _, cg := range f.Comments {
				for _, r := range plainRefs(cg.Text()) {
					bad, err := r.stale(byName, symbols)
					if err != nil {
						return 0, err
					}
					if bad != "" {
						pos := fset.Position(textPos(cg, r.text))
						found = append(found, fmt.Sprintf("%s:%d: %s names nothing", relPath(pos.Filename), pos.Line, bad))
					}
				}
				for _, l := range links(cg.Text(), imports) {
					ok, err := resolves(l, p, own, byPath, symbols)
					if err != nil {
						return 0, err
					}
					if !ok {
						pos := fset.Position(linePos(cg, l))
						found = append(found, fmt.Sprintf("%s:%d: [%s] names nothing", relPath(pos.Filename), pos.Line, linkText(l)))
					}
				}
			}
		}
	}
	if o.md != "" {
		for _, glob := range strings.Split(o.md, ",") {
			names, err := filepath.Glob(glob)
			if err != nil {
				return 0, err
			}
			if len(names) == 0 {
				return 0, fmt.Errorf("-md %s matches no file", glob)
			}
			for _, name := range names {
				text, err := os.ReadFile(name)
				if err != nil {
					return 0, err
				}
				for _, r := range plainRefs(string(text)) {
					bad, err := r.stale(byName, symbols)
					if err != nil {
						return 0, err
					}
					if bad != "" {
						line := 1 + strings.Count(string(text[:r.offset]), "\n")
						found = append(found, fmt.Sprintf("%s:%d: %s names nothing", relPath(name), line, bad))
					}
				}
			}
		}
	}
	sort.Strings(found)
	found = dedupe(found)
	for _, s := range found {
		fmt.Fprintln(w, s)
	}
	return len(found), nil
}

// list runs go list on patterns.
func list(patterns []string) ([]*pkg, error) {
	cmd := exec.Command("go", append([]string{"list", "-json=ImportPath,Name,Dir,GoFiles"}, patterns...)...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("go list %s: %v\n%s", strings.Join(patterns, " "), err, errb.String())
	}
	var pkgs []*pkg
	dec := json.NewDecoder(&out)
	for dec.More() {
		p := &pkg{}
		if err := dec.Decode(p); err != nil {
			return nil, err
		}
		pkgs = append(pkgs, p)
	}
	return pkgs, nil
}

func parse(fset *token.FileSet, p *pkg) ([]*ast.File, error) {
	var files []*ast.File
	for _, name := range p.GoFiles {
		f, err := parser.ParseFile(fset, filepath.Join(p.Dir, name), nil, parser.ParseComments)
		if err != nil {
			return nil, err
		}
		files = append(files, f)
	}
	return files, nil
}

// typeKey marks, in the symbols of a package, the names that are types.
const typeKey = "type "

// declared returns the symbols a doc link may name in a package: Name for
// each top-level declaration, Type.Member for each method, struct field
// and interface method; and typeKey+Name for each type.
func declared(files []*ast.File) map[string]bool {
	s := map[string]bool{}
	for _, f := range files {
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil || len(d.Recv.List) == 0 {
					s[d.Name.Name] = true
					continue
				}
				if r := recvName(d.Recv.List[0].Type); r != "" {
					s[r+"."+d.Name.Name] = true
				}
			case *ast.GenDecl:
				for _, spec := range d.Specs {
					switch spec := spec.(type) {
					case *ast.TypeSpec:
						s[spec.Name.Name] = true
						s[typeKey+spec.Name.Name] = true
						members(s, spec.Name.Name, spec.Type)
					case *ast.ValueSpec:
						for _, n := range spec.Names {
							s[n.Name] = true
						}
					}
				}
			}
		}
	}
	return s
}

func members(s map[string]bool, typ string, e ast.Expr) {
	var fields *ast.FieldList
	switch e := e.(type) {
	case *ast.StructType:
		fields = e.Fields
	case *ast.InterfaceType:
		fields = e.Methods
	}
	if fields == nil {
		return
	}
	for _, f := range fields.List {
		for _, n := range f.Names {
			s[typ+"."+n.Name] = true
		}
		if len(f.Names) == 0 { // embedded: its name is a member
			if n := recvName(f.Type); n != "" {
				s[typ+"."+n] = true
			}
		}
	}
}

// recvName is the type name of a receiver or embedded field: T, *T, T[P].
func recvName(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.StarExpr:
		return recvName(e.X)
	case *ast.IndexExpr:
		return recvName(e.X)
	case *ast.IndexListExpr:
		return recvName(e.X)
	case *ast.SelectorExpr:
		return e.Sel.Name
	case *ast.Ident:
		return e.Name
	}
	return ""
}

// importNames maps the names a file imports packages under to their
// import paths.
func importNames(f *ast.File) map[string]string {
	m := map[string]string{}
	for _, im := range f.Imports {
		path, err := strconv.Unquote(im.Path.Value)
		if err != nil {
			continue
		}
		name := path[strings.LastIndex(path, "/")+1:]
		if im.Name != nil {
			name = im.Name.Name
		}
		m[name] = path
	}
	return m
}

// links returns the doc links of a comment's text. Every bracketed name
// is taken for a link (LookupSym accepts all), so that the caller decides
// which resolve.
func links(text string, imports map[string]string) []*comment.DocLink {
	p := comment.Parser{
		LookupPackage: func(name string) (string, bool) {
			if path, ok := imports[name]; ok {
				return path, true
			}
			return "", false
		},
		LookupSym: func(recv, name string) bool { return true },
	}
	var out []*comment.DocLink
	var walk func(ts []comment.Text)
	walk = func(ts []comment.Text) {
		for _, t := range ts {
			switch t := t.(type) {
			case *comment.DocLink:
				out = append(out, t)
			case *comment.Link:
				walk(t.Text)
			case *comment.Italic, comment.Plain:
			}
		}
	}
	for _, b := range p.Parse(text).Content {
		switch b := b.(type) {
		case *comment.Paragraph:
			walk(b.Text)
		case *comment.Heading:
			walk(b.Text)
		case *comment.List:
			for _, it := range b.Items {
				for _, c := range it.Content {
					if para, ok := c.(*comment.Paragraph); ok {
						walk(para.Text)
					}
				}
			}
		}
	}
	return out
}

// resolves reports whether l names a symbol: in p itself, or in the
// package of this module it imports; links into other modules count as
// resolved.
func resolves(l *comment.DocLink, p *pkg, own map[string]bool, byPath map[string]*pkg, symbols func(*pkg) (map[string]bool, error)) (bool, error) {
	key := l.Name
	if l.Recv != "" {
		key = l.Recv + "." + l.Name
	}
	if l.ImportPath == "" || l.ImportPath == p.ImportPath {
		if l.Name == "" { // a link to a package by its own name
			return true, nil
		}
		return own[key], nil
	}
	target, ok := byPath[l.ImportPath]
	if !ok {
		return true, nil // outside the packages listed: not ours to check
	}
	if l.Name == "" {
		return true, nil
	}
	s, err := symbols(target)
	if err != nil {
		return false, err
	}
	return s[key], nil
}

// linePos is the position of the comment line of cg that holds l, or of
// cg itself when no line does (a link split across lines).
func linePos(cg *ast.CommentGroup, l *comment.DocLink) token.Pos {
	name := l.Name
	if l.Recv != "" {
		name = l.Recv + "." + name
	}
	for _, c := range cg.List {
		if strings.Contains(c.Text, name+"]") {
			return c.Pos()
		}
	}
	return cg.Pos()
}

func linkText(l *comment.DocLink) string {
	s := l.Name
	if l.Recv != "" {
		s = l.Recv + "." + s
	}
	if l.ImportPath != "" {
		s = l.ImportPath + "." + s
	}
	if l.Name == "" {
		s = l.ImportPath
	}
	return s
}

// relPath is name relative to the working directory, when it can be.
func relPath(name string) string {
	if wd, err := os.Getwd(); err == nil {
		if r, err := filepath.Rel(wd, name); err == nil {
			return r
		}
	}
	return name
}

func slicesClone(ps []*pkg) []*pkg { return append([]*pkg(nil), ps...) }

// dedupe drops repeated lines of a sorted list: one stale name is
// reported once per line.
func dedupe(lines []string) []string {
	var out []string
	for i, l := range lines {
		if i == 0 || l != lines[i-1] {
			out = append(out, l)
		}
	}
	return out
}

// plainRef is a name qualified by a package name in text: pkg.Name or
// pkg.Type.Member.
type plainRef struct {
	pkg, name, member string
	text              string // as written: "fakeclock.Clock.Step"
	offset            int    // in the text it was found in
}

// plainRefRE finds pkg.Name and pkg.Name.Member: a lowercase package name
// not itself after a dot, a slash or a word character (so that
// "internal/settle.X", "foo.bar.Baz" and "x.go" are not taken), and an
// exported name.
var plainRefRE = regexp.MustCompile(`(?:^|[^\w./])([a-z][a-z0-9]*)\.([A-Z]\w*)(?:\.([A-Z]\w*))?`)

// plainRefs returns the qualified names of text.
func plainRefs(text string) []plainRef {
	var out []plainRef
	for _, m := range plainRefRE.FindAllStringSubmatchIndex(text, -1) {
		if m[2] > 0 && text[m[2]-1] == '[' {
			continue // a doc link: checked as one
		}
		r := plainRef{pkg: text[m[2]:m[3]], name: text[m[4]:m[5]], offset: m[2]}
		end := m[5]
		if m[6] >= 0 {
			r.member, end = text[m[6]:m[7]], m[7]
		}
		r.text = text[m[2]:end]
		out = append(out, r)
	}
	return out
}

// stale returns the name as written when r names a package listed but
// nothing in it, or "".
func (r plainRef) stale(byName map[string][]*pkg, symbols func(*pkg) (map[string]bool, error)) (string, error) {
	ps, ok := byName[r.pkg]
	if !ok {
		return "", nil // not a package of ours: the standard library, another module, or no package at all
	}
	for _, p := range ps {
		s, err := symbols(p)
		if err != nil {
			return "", err
		}
		switch {
		case r.member != "" && s[r.name+"."+r.member]:
			return "", nil
		case s[r.name] && (r.member == "" || !s[typeKey+r.name]):
			return "", nil // the name, or a member of a value (fakeclock.Epoch.Add)
		}
	}
	if r.member != "" {
		for _, p := range ps {
			if s, _ := symbols(p); s[r.name] {
				return r.text, nil // a type that has no such member
			}
		}
		return r.pkg + "." + r.name, nil
	}
	return r.text, nil
}

// textPos is the position of the comment line of cg that holds text, or of
// cg itself.
func textPos(cg *ast.CommentGroup, text string) token.Pos {
	for _, c := range cg.List {
		if strings.Contains(c.Text, text) {
			return c.Pos()
		}
	}
	return cg.Pos()
}
