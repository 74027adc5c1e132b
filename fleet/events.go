package fleet

// Event is something that happened in a run: RootStarted, RootFinished or
// Progress. Events are delivered one at a time (Options.Events is never
// called concurrently), in the order they happened.
type Event interface{ fleetEvent() }

// RootStarted: a root's function was called.
type RootStarted struct {
	Root  string
	Index int
}

// RootFinished: a root's function returned (or the root was not run, when
// the run was cancelled before its turn). Done of Total roots are
// finished, this one included.
type RootFinished struct {
	Result      RootResult
	Done, Total int
}

// Progress: the fleet's running totals of packages finished and bytes
// received, as the roots' functions report them (Task.Progress).
type Progress struct {
	Packages int
	Bytes    int64
}

func (RootStarted) fleetEvent()  {}
func (RootFinished) fleetEvent() {}
func (Progress) fleetEvent()     {}
