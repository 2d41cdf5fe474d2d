// SPDX-License-Identifier: GPL-3.0-or-later

// Command gocacheprog is the Go build cache of Sandbox Studio's Go image: a GOCACHEPROG
// program (protocol: cmd/go/internal/cacheprog, Go 1.24) that answers "get" from
// read-only cache layers first (the standard library, compiled when the image was built
// and stored in the image's read-only root filesystem) and then from one writable layer
// (the sandbox's own work directory, emptied between runs), where every "put" goes.
//
// Usage (GOCACHEPROG is split on spaces by the go command):
//
//	gocacheprog [-ro DIR]... [-rw DIR]
//
// -ro may be given several times; layers are searched in that order. -rw defaults to
// $GOCACHE/gocacheprog (the go command's own GOCACHE directory must be writable anyway).
// Without arguments the read-only layer is build-cache beside the program's own file
// (when it exists), so that the image's GOCACHEPROG is a plain path with no spaces to
// quote. With arguments but no -ro the program is a plain disk cache in -rw: the image
// build fills its layer so.
//
// Layout of a layer: DIR/xx/<action hex>-a holds "v1 <output hex> <size> <unix nanoseconds>\n";
// DIR/xx/<output hex>-d holds the output's bytes (xx: the first two hex digits). An entry
// whose output file is missing or of another size is a miss.
//
// When the go command closes the cache and there is a -ro layer, the program writes its
// counts for this process to <rw>/stats.json ({"gets":N,"imageHits":N,"runHits":N,"misses":N,"puts":N}):
// evidence, without timing, that the image's layer served the build.
package main

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// request is cacheprog.ProgRequest. Before Go 1.24 the output ID was sent as ObjectID.
type request struct {
	ID       int64
	Command  string
	ActionID []byte `json:",omitempty"`
	OutputID []byte `json:",omitempty"`
	ObjectID []byte `json:",omitempty"`
	BodySize int64  `json:",omitempty"`
}

// response is cacheprog.ProgResponse.
type response struct {
	ID            int64
	Err           string     `json:",omitempty"`
	KnownCommands []string   `json:",omitempty"`
	Miss          bool       `json:",omitempty"`
	OutputID      []byte     `json:",omitempty"`
	Size          int64      `json:",omitempty"`
	Time          *time.Time `json:",omitempty"`
	DiskPath      string     `json:",omitempty"`
}

type stats struct {
	Gets      int `json:"gets"`
	ImageHits int `json:"imageHits"`
	RunHits   int `json:"runHits"`
	Misses    int `json:"misses"`
	Puts      int `json:"puts"`
}

type cache struct {
	readOnly []string
	writable string
	stats    stats
}

func main() {
	var c cache
	args := os.Args[1:]
	if len(args) == 0 {
		if exe, err := os.Executable(); err == nil {
			layer := filepath.Join(filepath.Dir(exe), "build-cache")
			if st, err := os.Stat(layer); err == nil && st.IsDir() {
				c.readOnly = append(c.readOnly, layer)
			}
		}
	}
	for len(args) > 0 {
		if len(args) < 2 || (args[0] != "-ro" && args[0] != "-rw") {
			fatalf("usage: gocacheprog [-ro DIR]... [-rw DIR] (got %q)", strings.Join(args, " "))
		}
		dir, err := filepath.Abs(args[1])
		if err != nil {
			fatalf("%v", err)
		}
		if args[0] == "-ro" {
			c.readOnly = append(c.readOnly, dir)
		} else {
			c.writable = dir
		}
		args = args[2:]
	}
	if c.writable == "" {
		base := os.Getenv("GOCACHE")
		if base == "" || base == "off" {
			d, err := os.UserCacheDir()
			if err != nil {
				fatalf("no -rw directory and no GOCACHE: %v", err)
			}
			base = filepath.Join(d, "go-build")
		}
		c.writable = filepath.Join(base, "gocacheprog")
	}
	if err := os.MkdirAll(c.writable, 0o755); err != nil {
		fatalf("%v", err)
	}
	in := bufio.NewReaderSize(os.Stdin, 1<<16)
	out := bufio.NewWriterSize(os.Stdout, 1<<16)
	enc := json.NewEncoder(out)
	send := func(r *response) {
		if err := enc.Encode(r); err != nil {
			fatalf("writing a response: %v", err)
		}
		if err := out.Flush(); err != nil {
			fatalf("writing a response: %v", err)
		}
	}
	send(&response{KnownCommands: []string{"get", "put", "close"}})
	for {
		line, err := readLine(in)
		if errors.Is(err, io.EOF) {
			c.writeStats()
			return
		}
		if err != nil {
			fatalf("reading a request: %v", err)
		}
		var req request
		if err := json.Unmarshal(line, &req); err != nil {
			fatalf("bad request %q: %v", line, err)
		}
		switch req.Command {
		case "get":
			send(c.get(&req))
		case "put":
			send(c.put(&req, in))
		case "close":
			c.writeStats()
			send(&response{ID: req.ID})
			return
		default:
			send(&response{ID: req.ID, Err: fmt.Sprintf("unknown command %q", req.Command)})
		}
	}
}

func fatalf(format string, a ...any) {
	fmt.Fprintf(os.Stderr, "gocacheprog: "+format+"\n", a...)
	os.Exit(2)
}

// readLine returns the next non-empty line without its newline (the go command writes an
// empty line after each request).
func readLine(in *bufio.Reader) ([]byte, error) {
	for {
		line, err := in.ReadBytes('\n')
		line = bytes.TrimSpace(line)
		if len(line) > 0 {
			return line, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

func entryPath(dir string, id []byte, suffix string) string {
	h := hex.EncodeToString(id)
	return filepath.Join(dir, h[:2], h+suffix)
}

// lookup reads an action entry of one layer; ok is false on any kind of miss.
func lookup(dir string, action []byte) (r response, ok bool) {
	data, err := os.ReadFile(entryPath(dir, action, "-a"))
	if err != nil {
		return r, false
	}
	f := strings.Fields(string(data))
	if len(f) != 4 || f[0] != "v1" {
		return r, false
	}
	outputID, err := hex.DecodeString(f[1])
	if err != nil || len(outputID) != sha256.Size {
		return r, false
	}
	size, err1 := strconv.ParseInt(f[2], 10, 64)
	nanos, err2 := strconv.ParseInt(f[3], 10, 64)
	if err1 != nil || err2 != nil {
		return r, false
	}
	path := entryPath(dir, outputID, "-d")
	if st, err := os.Stat(path); err != nil || !st.Mode().IsRegular() || st.Size() != size {
		return r, false
	}
	t := time.Unix(0, nanos)
	return response{OutputID: outputID, Size: size, Time: &t, DiskPath: path}, true
}

func (c *cache) get(req *request) *response {
	c.stats.Gets++
	if len(req.ActionID) != sha256.Size {
		return &response{ID: req.ID, Err: "get: action ID is not 32 bytes"}
	}
	for _, dir := range c.readOnly {
		if r, ok := lookup(dir, req.ActionID); ok {
			c.stats.ImageHits++
			r.ID = req.ID
			return &r
		}
	}
	if r, ok := lookup(c.writable, req.ActionID); ok {
		c.stats.RunHits++
		r.ID = req.ID
		return &r
	}
	c.stats.Misses++
	return &response{ID: req.ID, Miss: true}
}

// put reads the request's body from in (a JSON string of base64 after the request line)
// and stores it in the writable layer. The body is checked against its output ID (its
// SHA-256), so an entry's bytes are always what its name says. A body that cannot be
// stored (a full work directory) is still read to its end and answered with an error.
func (c *cache) put(req *request, in *bufio.Reader) *response {
	c.stats.Puts++
	outputID := req.OutputID
	if len(outputID) == 0 {
		outputID = req.ObjectID
	}
	body, sum, storeErr, err := c.storeBody(req.BodySize, in)
	if err != nil {
		// The stream is out of step once a body could not be read: nothing sensible follows.
		fatalf("put %d: %v", req.ID, err)
	}
	fail := func(format string, a ...any) *response {
		if body != "" {
			os.Remove(body)
		}
		return &response{ID: req.ID, Err: fmt.Sprintf("put: "+format, a...)}
	}
	if storeErr != nil {
		return fail("%v", storeErr)
	}
	if len(req.ActionID) != sha256.Size || len(outputID) != sha256.Size {
		return fail("action or output ID is not 32 bytes")
	}
	if !bytes.Equal(sum, outputID) {
		return fail("the body's SHA-256 is not its output ID")
	}
	final := entryPath(c.writable, outputID, "-d")
	if err := os.MkdirAll(filepath.Dir(final), 0o755); err != nil {
		return fail("%v", err)
	}
	if err := os.Rename(body, final); err != nil {
		return fail("%v", err)
	}
	entry := fmt.Sprintf("v1 %x %d %d\n", outputID, req.BodySize, time.Now().UnixNano())
	if err := writeAtomic(entryPath(c.writable, req.ActionID, "-a"), []byte(entry)); err != nil {
		return fail("%v", err)
	}
	return &response{ID: req.ID, DiskPath: final}
}

// stickyWriter writes to w until the first error, then only counts: the rest of a body is
// read (and hashed) even when it cannot be stored.
type stickyWriter struct {
	w   io.Writer
	err error
}

func (s *stickyWriter) Write(p []byte) (int, error) {
	if s.err == nil {
		_, s.err = s.w.Write(p)
	}
	return len(p), nil
}

// storeBody copies a body of size bytes from in into a new file of the writable layer and
// returns its name and SHA-256. A body is sent as `"<base64>"` on a line of its own; size
// 0 sends none. storeErr: the file could not be written (the body was still read); err:
// the stream itself is broken.
func (c *cache) storeBody(size int64, in *bufio.Reader) (name string, sum []byte, storeErr, err error) {
	h := sha256.New()
	f, storeErr := os.CreateTemp(c.writable, ".body-")
	if storeErr == nil {
		name = f.Name()
		defer f.Close()
		// Readable by all: the image's layer is written by root and read by the sandbox user.
		storeErr = f.Chmod(0o644)
	}
	sink := &stickyWriter{w: io.Discard}
	if storeErr == nil {
		sink.w = f
	}
	if size > 0 {
		if err := skipSpace(in); err != nil {
			return name, nil, nil, err
		}
		if b, err := in.ReadByte(); err != nil || b != '"' {
			return name, nil, nil, fmt.Errorf("body does not start with a quote")
		}
		encoded := int64(base64.StdEncoding.EncodedLen(int(size)))
		dec := base64.NewDecoder(base64.StdEncoding, io.LimitReader(in, encoded))
		n, err := io.Copy(io.MultiWriter(sink, h), dec)
		if err != nil {
			return name, nil, nil, fmt.Errorf("body: %v", err)
		}
		if n != size {
			return name, nil, nil, fmt.Errorf("body has %d bytes, not %d", n, size)
		}
		if b, err := in.ReadByte(); err != nil || b != '"' {
			return name, nil, nil, fmt.Errorf("body does not end with a quote")
		}
	}
	if storeErr == nil {
		storeErr = sink.err
	}
	if storeErr == nil && f != nil {
		storeErr = f.Close()
	}
	return name, h.Sum(nil), storeErr, nil
}

func skipSpace(in *bufio.Reader) error {
	for {
		b, err := in.ReadByte()
		if err != nil {
			return err
		}
		if b != ' ' && b != '\n' && b != '\r' && b != '\t' {
			return in.UnreadByte()
		}
	}
}

func writeAtomic(name string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(name), ".entry-")
	if err != nil {
		return err
	}
	if err := f.Chmod(0o644); err != nil {
		f.Close()
		os.Remove(f.Name())
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		os.Remove(f.Name())
		return err
	}
	if err := f.Close(); err != nil {
		os.Remove(f.Name())
		return err
	}
	return os.Rename(f.Name(), name)
}

func (c *cache) writeStats() {
	if len(c.readOnly) == 0 {
		return // filling a layer (the image build): no counts left in it
	}
	data, _ := json.Marshal(c.stats)
	// Best effort: the counts are evidence for tests, not part of the cache.
	_ = writeAtomic(filepath.Join(c.writable, "stats.json"), append(data, '\n'))
}
