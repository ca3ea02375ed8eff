package domain

import (
	"reflect"
	"testing"
)

// A visitor's kind says which dispensers' refill puts it right: paper a
// tissue dispenser's, soap a soap dispenser's, towels a towel
// dispenser's; what a person must look at, none.
func TestAVisitorKindNamesTheDispensersThatPutItRight(t *testing.T) {
	for k, want := range map[VisitorKind][]DeviceType{
		VisitorNoPaper: {Tissue}, VisitorNoSoap: {Soap}, VisitorNoTowels: {Towel},
		VisitorDirty: nil, VisitorBroken: nil, VisitorOther: nil, VisitorRatingOnly: nil, VisitorFlood: nil,
	} {
		if got := k.Dispensers(); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: %v; want %v", k, got, want)
		}
	}
}

// A visitor chooses among the kinds of the page; a rating alone and a
// flood marker are kept, never chosen.
func TestAVisitorChoosesAmongThePagesKinds(t *testing.T) {
	for _, k := range VisitorKinds {
		if !k.Chosen() || !k.Known() {
			t.Errorf("%s is not offered", k)
		}
	}
	for _, k := range []VisitorKind{VisitorRatingOnly, VisitorFlood} {
		if k.Chosen() || !k.Known() {
			t.Errorf("%s: chosen %v, known %v; want kept, not chosen", k, k.Chosen(), k.Known())
		}
	}
	if k := VisitorKind("fire"); k.Known() || k.Chosen() {
		t.Errorf("%q is known", k)
	}
}
