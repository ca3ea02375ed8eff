package views

import "time"

// MyWork is the "My work" page (docs/my-work.md): a person's work now, on
// their phone.
type MyWork struct {
	Page
	// Shift is the account's shift now (or next), ShiftEnd its end: the
	// dispensers of RunsOut run out before it.
	Shift    string
	ShiftEnd time.Time
	// Bring is the round's pick list, the items' Bring added up, in
	// words: "7 tissue rolls".
	Bring []string
	// Mine are the alerts the person is on, Open the other open alerts,
	// RunsOut the dispensers that run out before the shift ends.
	Mine, Open, RunsOut []WorkItem
	// MayAct offers the actions: staff and above.
	MayAct bool
	// Cut says that not everything fits the page.
	Cut bool
	// Problem is why an action was refused, in words.
	Problem string
	// Drawn is when the page was drawn: a copy kept on the phone says it
	// is from then.
	Drawn time.Time
	// Round is the person's running round; nil when they have none.
	Round *MyRound
}

// WorkItem is one line of "My work".
type WorkItem struct {
	// ID is the item's element id, the target htmx swaps.
	ID string
	// Where is "Room › Location", Building and Floor above it.
	Where, Building, Floor string
	// What is wrong: "Product out", "Runs out at 15:40".
	What string
	// Bring is what to carry there, in words ("2 soap refills"); none
	// for nothing.
	Bring []string
	// Claim is who is on it, in words ("Ana is on it"); "" for nobody or
	// for the person's own claim (Mine).
	Claim string
	Mine  bool
	// Done is the newest "done" report, in words; "" for none.
	Done string
	// ClaimAction and DoneAction are where the item's forms post; ""
	// offers no form (a dispenser that runs out has no alert to act on).
	ClaimAction, DoneAction string
	// Seen is the claim the page shows, its time in Unix milliseconds, "0"
	// for none: an "I'm on it" kept on a phone and sent later is refused
	// when someone else said so since.
	Seen string
	// ClaimKey and DoneKey are the forms' idempotency keys.
	ClaimKey, DoneKey string
	// Outcomes are the choices of what was done.
	Outcomes []Option
	// Reason is the reason typed, shown again with Problem.
	Reason, Problem string
}
