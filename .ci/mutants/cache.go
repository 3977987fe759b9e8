package main

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
)

// verdicts is the gate's memory of kills (-cache DIR): the verdict on a
// mutant that was killed, and the passing of a list's baseline, each kept
// under a hash of everything the run read, so that a run of the same code
// reuses them instead of building and running a test binary again, as go
// test reuses a passing test's result (and as PIT's history and Stryker's
// incremental mode do for mutants). What a verdict depends on (the
// fingerprint of the list's package):
//
//   - the mutant: its file, original, replacement and occurrence;
//   - every file of every package the test binary is built from, its tests
//     included, that is not in the standard library or a module version
//     (go list -deps -test): .go files, cgo and assembly sources, embedded
//     files; a module version by its path and version, a local replacement
//     by its files;
//   - every file under the package's directory (goldens, testdata, the
//     sources a test reads), but its list and killers files;
//   - the main module's go.mod and go.sum; the toolchain and target (go
//     env GOVERSION, GOOS, GOARCH, GOFLAGS, GOEXPERIMENT, CGO_ENABLED,
//     GOAMD64, GODEBUG), GOMAXPROCS, the processors, every RETRYKIT_
//     variable of the environment; the gate's -timeout, -hang and -last,
//     and the gate's own source (how it builds and runs a mutant).
//
// Only a kill and a passing baseline are kept: a mutant that survives, is
// broken or stale, and a failing baseline, run again every time, so a
// failing gate never passes from memory. A fingerprint that cannot be taken
// turns the memory off for that list, saying why, and every mutant runs.
type verdicts struct {
	dir string
}

// entry is what the memory keeps of a verdict.
type entry struct {
	Kind   string `json:"kind"`
	Detail string `json:"detail"`
	Test   string `json:"test"`
}

// key is the name of the entry for what follows fingerprint; "" (nothing
// kept or read) when there is no fingerprint.
func key(fingerprint string, parts ...string) string {
	if fingerprint == "" {
		return ""
	}
	h := sha256.New()
	io.WriteString(h, fingerprint)
	for _, p := range parts {
		fmt.Fprintf(h, "\x00%d:%s", len(p), p)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// mutantKey is the key of m's verdict in a package of that fingerprint.
func mutantKey(fingerprint string, m mutant) string {
	return key(fingerprint, "mutant", m.file, m.original, m.replacement, fmt.Sprint(m.occurrence))
}

// baselineKey is the key of a passing baseline in a package of that
// fingerprint.
func baselineKey(fingerprint string) string { return key(fingerprint, "baseline") }

// get returns the entry kept under k, if any.
func (c *verdicts) get(k string) (entry, bool) {
	if c == nil || k == "" {
		return entry{}, false
	}
	b, err := os.ReadFile(filepath.Join(c.dir, k[:2], k))
	if err != nil {
		return entry{}, false
	}
	var e entry
	if json.Unmarshal(b, &e) != nil || e.Kind == "" {
		return entry{}, false // a torn or foreign file: run again
	}
	return e, true
}

// put keeps e under k. A memory that cannot be written costs time, never a
// verdict: the error is returned for the report.
func (c *verdicts) put(k string, e entry) error {
	if c == nil || k == "" {
		return nil
	}
	b, err := json.Marshal(e)
	if err != nil {
		return err
	}
	dir := filepath.Join(c.dir, k[:2])
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, k+".tmp*")
	if err != nil {
		return err
	}
	_, werr := f.Write(b)
	cerr := f.Close()
	if err := errors.Join(werr, cerr); err != nil {
		os.Remove(f.Name())
		return err
	}
	return os.Rename(f.Name(), filepath.Join(dir, k))
}

// listed is what fingerprint reads of a package from go list.
type listed struct {
	ImportPath string
	Dir        string
	Standard   bool
	Module     *struct {
		Path    string
		Version string
		Main    bool
		Replace *struct {
			Path    string
			Version string
		}
	}
	GoFiles, CgoFiles, CFiles, CXXFiles, HFiles, SFiles, SysoFiles []string
	TestGoFiles, XTestGoFiles                                      []string
	EmbedFiles, TestEmbedFiles, XTestEmbedFiles                    []string
}

// fingerprint hashes what the verdicts on the mutants of the package in
// dir depend on, but the mutants themselves (see verdicts).
func (g gate) fingerprint(dir string) (string, error) {
	h := sha256.New()
	fmt.Fprintf(h, "retrykit mutants v1\ntimeout=%v hang=%v last=%q\n", g.timeout, g.hang, g.last)
	// The gate itself: how it builds and runs a mutant is its code.
	if err := hashSelf(h); err != nil {
		return "", err
	}
	goCmd := func(args ...string) ([]byte, error) {
		cmd := exec.Command("go", args...)
		cmd.Dir = dir
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			return nil, fmt.Errorf("go %s: %v: %s", strings.Join(args, " "), err, firstLines(stderr.String(), 1))
		}
		return out, nil
	}
	env, err := goCmd("env", "GOVERSION", "GOOS", "GOARCH", "GOFLAGS", "GOEXPERIMENT", "CGO_ENABLED", "GOAMD64", "GODEBUG")
	if err != nil {
		return "", err
	}
	h.Write(env)
	mod, err := goCmd("env", "GOMOD")
	if err != nil {
		return "", err
	}
	fmt.Fprintf(h, "GOMAXPROCS=%q NumCPU=%d\n", os.Getenv("GOMAXPROCS"), runtime.NumCPU())
	var vars []string
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "RETRYKIT_") {
			vars = append(vars, kv)
		}
	}
	slices.Sort(vars)
	fmt.Fprintf(h, "%q\n", vars)
	gomod := strings.TrimSpace(string(mod))
	if gomod == "" || gomod == os.DevNull {
		return "", fmt.Errorf("the package in %s is in no module", dir)
	}
	// Files are named relative to the module's root: a clone elsewhere
	// has the same fingerprint.
	root := filepath.Dir(gomod)
	for _, f := range []string{gomod, strings.TrimSuffix(gomod, ".mod") + ".sum"} {
		if err := hashFile(h, root, f); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return "", err
		}
	}
	out, err := goCmd("list", "-deps", "-test", "-json", ".")
	if err != nil {
		return "", err
	}
	for d := json.NewDecoder(bytes.NewReader(out)); ; {
		var p listed
		if err := d.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			return "", fmt.Errorf("go list -deps -test -json in %s: %v", dir, err)
		}
		switch {
		case p.Standard:
			continue // GOVERSION names it
		case p.Module != nil && !p.Module.Main && p.Module.Replace == nil:
			fmt.Fprintf(h, "package %s of %s@%s\n", p.ImportPath, p.Module.Path, p.Module.Version)
			continue
		case p.Module != nil && p.Module.Replace != nil && p.Module.Replace.Version != "":
			fmt.Fprintf(h, "package %s of %s@%s\n", p.ImportPath, p.Module.Replace.Path, p.Module.Replace.Version)
			continue
		}
		fmt.Fprintf(h, "package %s\n", p.ImportPath)
		for _, files := range [][]string{p.GoFiles, p.CgoFiles, p.CFiles, p.CXXFiles, p.HFiles, p.SFiles, p.SysoFiles,
			p.TestGoFiles, p.XTestGoFiles, p.EmbedFiles, p.TestEmbedFiles, p.XTestEmbedFiles} {
			for _, f := range files {
				if filepath.IsAbs(f) {
					// The test main go test generates, in the build cache,
					// from the test files hashed here.
					continue
				}
				if err := hashFile(h, root, filepath.Join(p.Dir, f)); err != nil {
					return "", err
				}
			}
		}
	}
	// Everything under the package's directory that a test may read, but
	// the list and its killers, which only say what to try and in what order.
	err = filepath.WalkDir(dir, func(path string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		if rel, _ := filepath.Rel(dir, path); rel == filepath.FromSlash("testdata/mutants.txt") || rel == filepath.FromSlash(killersName) {
			return nil
		}
		return hashFile(h, root, path)
	})
	if err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// self is the gate's own source.
//
//go:embed *.go
var self embed.FS

// gateSource is the source hashSelf reads: self, but in a test.
var gateSource fs.ReadFileFS = self

// hashSelf writes the gate's own source, but its tests, to h.
func hashSelf(h io.Writer) error {
	files, err := fs.Glob(gateSource, "*.go")
	if err != nil {
		return err
	}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := gateSource.ReadFile(f)
		if err != nil {
			return err
		}
		fmt.Fprintf(h, "gate %s %d\n%s\n", f, len(b), b)
	}
	return nil
}

// hashFile writes path's name, relative to root, and its contents to h.
func hashFile(h io.Writer, root, path string) error {
	abs, err := filepath.Abs(path)
	if err != nil {
		return err
	}
	name, err := filepath.Rel(root, abs)
	if err != nil {
		return err
	}
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	fmt.Fprintf(h, "file %s\n", filepath.ToSlash(name))
	n, err := io.Copy(h, f)
	fmt.Fprintf(h, "\n%d bytes\n", n)
	return err
}
