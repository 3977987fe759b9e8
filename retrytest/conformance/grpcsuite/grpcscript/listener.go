package grpcscript

import (
	"context"
	"errors"
	"net"
	"sync"
)

// pipeListener is the server's in-memory listener: each dial makes a
// net.Pipe and hands its server end to Accept. Everything either side
// blocks on is a channel, made by the goroutine that dials or serves, so
// inside a testing/synctest bubble every wait of the connection is
// durable (the bubble's clock can move), and outside one the fake clock's
// settle reads each as idle. No socket is opened.
type pipeListener struct {
	conns chan net.Conn
	done  chan struct{}
	once  sync.Once
}

func newPipeListener() *pipeListener {
	return &pipeListener{conns: make(chan net.Conn), done: make(chan struct{})}
}

// errListenerClosed is what a dial gets once the server is closed.
var errListenerClosed = errors.New("grpcscript: the scripted server is closed")

func (l *pipeListener) Accept() (net.Conn, error) {
	select {
	case c := <-l.conns:
		return c, nil
	case <-l.done:
		return nil, net.ErrClosed
	}
}

func (l *pipeListener) Close() error {
	l.once.Do(func() { close(l.done) })
	return nil
}

func (l *pipeListener) Addr() net.Addr { return pipeAddr{} }

// dial connects to the listener; it fits grpc.WithContextDialer.
func (l *pipeListener) dial(ctx context.Context, _ string) (net.Conn, error) {
	client, server := net.Pipe()
	select {
	case l.conns <- server:
		return client, nil
	case <-l.done:
		client.Close()
		server.Close()
		return nil, errListenerClosed
	case <-ctx.Done():
		client.Close()
		server.Close()
		return nil, ctx.Err()
	}
}

type pipeAddr struct{}

func (pipeAddr) Network() string { return "pipe" }
func (pipeAddr) String() string  { return "grpcscript" }
