package views

// ChecksSaved is what rounds from need saved over a period against fixed
// rounds, in words (docs/rounds.md#checks-saved).
type ChecksSaved struct {
	// Every is how often fixed rounds would visit every room, in hours.
	Every int
	// None says there were no rounds from need in the period.
	None bool
	// Saved says in words what was saved, or that there were none.
	Saved string
	// NeedVisits and FixedVisits are the room visits of both.
	NeedVisits, FixedVisits int
	// NeedOut and FixedOut are the out-hours under both, in words;
	// NeedOutService and FixedOutService within service hours, "" when
	// none are set.
	NeedOut, FixedOut               string
	NeedOutService, FixedOutService string
	// Cut, when set, says not every room ticked was counted.
	Cut string
}
