// Doclinks is the doc-link gate of .ci/run: it reads the doc comments of
// the packages given and fails when a doc link ([Name], [Type.Method],
// [pkg.Name]) names nothing, so that godoc never shows a dangling link as
// plain text.
//
// Usage, from the module root:
//
//	go run ./.ci/doclinks ./...
//
// The arguments are go list patterns. A link is resolved as go/doc
// resolves it: [Name] and [Type.Member] against the package's own
// declarations (types, functions, methods, struct fields, interface
// methods, constants and variables), [pkg.Name] against the package the
// file imports under that name, when it is a package of this module. Links
// into other modules are not checked. Test files are skipped. Every
// dangling link is printed as file:line: [link]; the exit status is 1 when
// there is one, 2 when the packages cannot be read.
package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/doc/comment"
	"go/parser"
	"go/token"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

func main() {
	n, err := run(os.Stdout, os.Args[1:])
	if err != nil {
		fmt.Fprintln(os.Stderr, "doclinks:", err)
		os.Exit(2)
	}
	if n > 0 {
		fmt.Fprintf(os.Stderr, "doclinks: %d dangling doc links\n", n)
		os.Exit(1)
	}
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
	if len(patterns) == 0 {
		patterns = []string{"./..."}
	}
	pkgs, err := list(patterns)
	if err != nil {
		return 0, err
	}
	byPath := map[string]*pkg{}
	for _, p := range pkgs {
		byPath[p.ImportPath] = p
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
				for _, l := range links(cg.Text(), imports) {
					ok, err := resolves(l, p, own, byPath, symbols)
					if err != nil {
						return 0, err
					}
					if !ok {
						pos := fset.Position(linePos(cg, l))
						rel := pos.Filename
						if wd, err := os.Getwd(); err == nil {
							if r, err := filepath.Rel(wd, pos.Filename); err == nil {
								rel = r
							}
						}
						found = append(found, fmt.Sprintf("%s:%d: [%s] names nothing", rel, pos.Line, linkText(l)))
					}
				}
			}
		}
	}
	sort.Strings(found)
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

// declared returns the symbols a doc link may name in a package: Name for
// each top-level declaration, Type.Member for each method, struct field
// and interface method.
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
