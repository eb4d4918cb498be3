package sqldb

import (
	"context"
	"fmt"
)

// jobStates lists the states of River's job table.
var jobStates = []string{"available", "pending", "scheduled", "running", "retryable", "completed", "cancelled", "discarded"}

// JobCounts is the job queue at one moment, as operations metrics show it.
type JobCounts struct {
	// ByState counts the jobs in each state River knows (available, pending, scheduled, running, retryable,
	// completed, cancelled, discarded), zero included.
	ByState map[string]int64
	// FailedAttempts sums the failed attempts recorded on the jobs still kept, whatever their state.
	FailedAttempts int64
}

// JobCounts counts the jobs of the queue by state and the failed attempts they recorded, on either engine.
func (db *DB) JobCounts(ctx context.Context) (JobCounts, error) {
	q := `SELECT state, count(*), coalesce(sum(coalesce(json_array_length(errors), 0)), 0) FROM river_job GROUP BY state`
	if db.eng.name() == Postgres {
		q = `SELECT state::text, count(*), coalesce(sum(coalesce(array_length(errors, 1), 0)), 0) FROM river_job GROUP BY state`
	}
	out := JobCounts{ByState: make(map[string]int64, len(jobStates))}
	for _, s := range jobStates {
		out.ByState[s] = 0
	}
	rs, err := db.eng.reader().Query(ctx, q)
	if err != nil {
		return JobCounts{}, fmt.Errorf("sqldb: job counts: %w", err)
	}
	defer rs.Close()
	for rs.Next() {
		var (
			state   string
			n, errs int64
		)
		if err := rs.Scan(&state, &n, &errs); err != nil {
			return JobCounts{}, fmt.Errorf("sqldb: job counts: %w", err)
		}
		out.ByState[state] = n
		out.FailedAttempts += errs
	}
	if err := rs.Err(); err != nil {
		return JobCounts{}, fmt.Errorf("sqldb: job counts: %w", err)
	}
	return out, nil
}
