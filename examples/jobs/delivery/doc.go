// Package delivery is the part of seed 000's webhook delivery that the
// job frameworks' adapters share: one delivery of an event (Post), whose
// error the River worker of package riverjobs and the asynq handler of
// package asynqjobs classify, and the seed's backoff (Backoff), which
// River's ClientRetryPolicy and asynq's RetryDelayFunc draw their delays
// from.
package delivery
