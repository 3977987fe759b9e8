// Package asynqjobs is seed 000's webhook delivery on asynq
// ([github.com/hibiken/asynq] v0.26.0), Go's Redis-backed counterpart of
// Sidekiq: tasks in Redis, retried by the server with a RetryDelayFunc. It
// holds what a team writes — the seed's retry policy as a RetryDelayFunc
// (RetryDelay, with MaxRetry) and the handler that classifies a failed
// delivery (Handler) — and its tests show how to test them:
//
//   - the policy through asynq's own shape: conformance.TestPolicy calls
//     the RetryDelayFunc for every retry, at both edges of the random
//     source, behind the handler's classification and asynq's own rules (a
//     SkipRetry error is archived, a task whose retries are spent is
//     archived), against a Spec that states the seed's policy exactly;
//   - asynq's default policy against its formula, n⁴ + 15 + U{0…29}·(n+1)
//     seconds;
//   - asynq's real server on a real Redis: a task whose delivery fails is
//     moved to the retry set, and the time asynq recorded for its next
//     run (Inspector.ListRetryTasks, NextProcessAt) is the policy's delay
//     after the failure, to the second asynq stores; a permanent failure
//     is archived, not retried; a task is archived after its last retry.
//
// The real-server tests need Redis: RETRYKIT_REDIS_ADDR names it (.ci/run
// installs redis-server, starts it and sets the variable). Without the
// variable they skip, printing the command that starts one; with it set
// and Redis unreachable they fail.
package asynqjobs
