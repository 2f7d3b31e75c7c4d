//go:build !linux

package tt

// region is a table's memory outside the Go heap; other systems use the heap.
type region struct{}

// allocBuckets returns n zeroed buckets from the Go heap.
func allocBuckets(n int) ([]bucket, *region) { return make([]bucket, n), nil }

func (r *region) release() {}
