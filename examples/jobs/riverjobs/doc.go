// Package riverjobs is seed 000's webhook delivery on River
// ([github.com/riverqueue/river] v0.51.2), Go's counterpart of Celery and
// Sidekiq: jobs in a database, retried by the framework with a
// ClientRetryPolicy. It holds what a team writes — the seed's retry policy
// as a ClientRetryPolicy (RetryPolicy, with MaxAttempts), the worker
// that classifies a failed delivery (DeliverWorker), and the same worker
// with the schedule in its own NextRetry (BackoffWorker), the shape many
// River users write — and its tests show how to test them:
//
//   - the policy through River's own helper: conformance.TestPolicy calls
//     RetryPolicy.NextRetry for every retry, at both edges of the random
//     source, behind the worker's classification and River's own rules
//     (a cancelled job is not retried, a job at its MaxAttempts is
//     discarded), against a Spec that states the seed's policy exactly;
//   - a worker's NextRetry, which River asks before the client's policy
//     and which River's time stub does not reach: conformance.TestPolicy
//     with RunInBubble, where the wall clock it reads stands still;
//   - River's default policy against its formula, attempt⁴ seconds ±10%;
//   - the real adapter on a real database: River on its SQLite driver
//     (riverdriver/riversqlite over the pure-Go modernc.org/sqlite, a file
//     in t.TempDir, migrated by rivermigrate), jobs worked by
//     rivertest.Worker, time pinned by River's test time stub, and the
//     scheduled_at River wrote read back with SQL: exactly the policy's
//     delay at a pinned random source, within attempt⁴ seconds ±10% for the
//     default, a permanent failure not rescheduled, a job discarded after its
//     last attempt;
//   - the two River behaviours a user trips on: a NextRetry before now
//     makes River use its default policy instead, with a warning in the
//     log and nothing else, and a retry due within the scheduler's interval
//     (5s) is written as available, not retryable.
//
// No test waits on River's scheduler or on real time.
package riverjobs
