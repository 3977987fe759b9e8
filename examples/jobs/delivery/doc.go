// Package delivery makes one delivery of a seed 000 webhook: the work that
// the River worker of package riverjobs and the asynq handler of package
// asynqjobs do, and whose failure each framework retries with its policy.
// Its error is what the workers classify: a *webhook.StatusError for a
// non-2xx response, a transport error, or nil.
package delivery
