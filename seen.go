package radar

import "context"

// ReadPositionStore keeps how far each reader (an API key by its id, a web user as "user:<id>") has read the
// signals and alerts of its organisation.
type ReadPositionStore interface {
	// ReadPosition returns the reader's position: every item created at or before it has been seen. It returns
	// nil when the reader has marked nothing yet.
	ReadPosition(ctx context.Context, orgID, reader string) (*Time, error)
	// MarkSeen moves the reader's position to through unless it is further already; it returns the position
	// kept, which never moves backwards.
	MarkSeen(ctx context.Context, orgID, reader string, through Time) (Time, error)
}
