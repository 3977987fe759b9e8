package policysim

import (
	"container/heap"
	"math/rand/v2"
	"time"

	"github.com/retrykit/retrykit/internal/circuit"
)

// clientJob is a job of a client, waiting for its next attempt.
type clientJob struct {
	at   time.Duration
	pcg  rand.PCG
	job  int32
	made int32 // attempts made so far
}

// clientQueue holds a client's jobs by the instant of their next attempt,
// then by job, so that the order is the same on every run.
type clientQueue []clientJob

func (q clientQueue) Len() int { return len(q) }
func (q clientQueue) Less(i, k int) bool {
	return q[i].at < q[k].at || q[i].at == q[k].at && q[i].job < q[k].job
}
func (q clientQueue) Swap(i, k int) { q[i], q[k] = q[k], q[i] }
func (q *clientQueue) Push(x any)   { *q = append(*q, x.(clientJob)) }
func (q *clientQueue) Pop() any {
	old := *q
	x := old[len(old)-1]
	*q = old[:len(old)-1]
	return x
}

// clients runs the fleet client by client: each client's jobs in the
// order of their attempts, through the client's breaker. A job draws from
// its own generator as it does alone, so without a breaker the load is
// the same as without clients.
func (s *fleetSim) clients() error {
	n := s.f.Clients
	for c := range n {
		var q clientQueue
		for j := c; j < s.f.Jobs; j += n {
			at := s.start(j)
			q = append(q, clientJob{at: at, pcg: s.pcg, job: int32(j)})
		}
		heap.Init(&q)
		var cb *circuit.Circuit
		if b := s.f.Breaker; b != nil {
			cb = circuit.New(circuit.Params(*b), 0)
		}
		for q.Len() > 0 {
			w := heap.Pop(&q).(clientJob)
			j, t := int(w.job), w.at
			s.pcg = w.pcg
			made := int(w.made) + 1
			switch {
			case cb != nil && !cb.Allow(t):
				s.load.Refused++
			case t < s.f.Outage:
				s.load.Requests++
				s.load.FailedRequests++
				s.load.OutageRequests++
				if cb != nil {
					cb.Record(t, circuit.Failure)
				}
			default:
				if err := s.arrive(j, t); err != nil {
					return err
				}
				if cb != nil {
					cb.Record(t, circuit.Success)
				}
				s.load.Recovered++
				continue
			}
			next, retry, err := s.decide(j, made, t)
			if err != nil {
				return err
			}
			if retry {
				heap.Push(&q, clientJob{at: next, pcg: s.pcg, job: w.job, made: int32(made)})
			}
		}
	}
	return nil
}
