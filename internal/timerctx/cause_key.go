package timerctx

import "context"

// cancelCtxKey is the key the context package looks up to find a context's
// cause. It is unexported there; context.Cause reveals it by asking the
// context it is given.
var cancelCtxKey = func() any {
	p := &keyProbe{Context: context.Background()}
	_ = context.Cause(p)
	return p.key
}()

// keyProbe is a context that has ended and remembers the first key it is
// asked for.
type keyProbe struct {
	context.Context
	key any
}

func (p *keyProbe) Err() error { return context.Canceled }

func (p *keyProbe) Value(key any) any {
	if p.key == nil {
		p.key = key
	}
	return nil
}
