package storetest

import (
	"bytes"
	"errors"
	"reflect"
	"testing"
	"time"

	"washboard/internal/domain"
	"washboard/internal/store"
)

// testFloorPlans: a floor's plan is kept with its image and read back
// without it; its placements are saved whole and survive a new plan of
// the same size, and are scaled and offered for review under a plan of
// another size; plans over the bounds are refused; another account sees
// nothing of it; removing it leaves nothing of it, placements included.
func testFloorPlans(t *testing.T, open func(*testing.T) store.Store) {
	s := open(t)
	ctx := t.Context()
	mustReplaceLayout(t, s, testLayout("a", false))
	mustReplaceLayout(t, s, testLayout("b", false))

	if _, err := s.FloorPlan(ctx, "a", "a-f1"); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("the plan of a floor without one: %v; want ErrNotFound", err)
	}
	plan := domain.FloorPlan{FloorID: "a-f1", ContentType: "image/png", Width: 800, Height: 600, Updated: t0, UpdatedBy: "p-ana"}
	first := []byte("\x89PNG first plan")
	if _, err := s.PutFloorPlan(ctx, "a", plan, first); err != nil {
		t.Fatal(err)
	}
	placed := domain.Placements{
		Locations: map[string]domain.PlanPoint{"a-1": {X: 100, Y: 50}, "a-2": {X: 800, Y: 600}},
		Rooms:     map[string][]domain.PlanPoint{"a-r1": {{X: 0, Y: 0}, {X: 400, Y: 0}, {X: 400, Y: 300}, {X: 0, Y: 300}}},
	}
	if err := s.SavePlacements(ctx, "a", "a-f1", placed, "p-ben", t0.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	want := plan
	want.Placements, want.Updated, want.UpdatedBy = placed, t0.Add(time.Minute), "p-ben"
	if got, err := s.FloorPlan(ctx, "a", "a-f1"); err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("the plan after placing = %+v, %v; want %+v", got, err, want)
	}
	if ct, body, err := s.FloorPlanImage(ctx, "a", "a-f1"); err != nil || ct != "image/png" || !bytes.Equal(body, first) {
		t.Errorf("the plan's image = %q, %q, %v", ct, body, err)
	}

	same := plan
	same.ContentType, same.Updated = "image/svg+xml", t0.Add(time.Hour)
	if _, err := s.PutFloorPlan(ctx, "a", same, []byte("<svg/>")); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.FloorPlan(ctx, "a", "a-f1"); !reflect.DeepEqual(got.Placements, placed) || got.Review || got.ContentType != "image/svg+xml" {
		t.Errorf("under a new plan of the same size: %+v; want the placements as they were, not for review", got)
	}
	if ct, body, _ := s.FloorPlanImage(ctx, "a", "a-f1"); ct != "image/svg+xml" || string(body) != "<svg/>" {
		t.Errorf("the replaced image = %q, %q", ct, body)
	}

	larger := plan
	larger.Width, larger.Height = 1600, 900
	got, err := s.PutFloorPlan(ctx, "a", larger, first)
	scaled := domain.Placements{
		Locations: map[string]domain.PlanPoint{"a-1": {X: 200, Y: 75}, "a-2": {X: 1600, Y: 900}},
		Rooms:     map[string][]domain.PlanPoint{"a-r1": {{X: 0, Y: 0}, {X: 800, Y: 0}, {X: 800, Y: 450}, {X: 0, Y: 450}}},
	}
	if err != nil || !got.Review || !reflect.DeepEqual(got.Placements, scaled) {
		t.Errorf("a plan twice as wide, 1.5 times as tall = %+v, %v; want the placements scaled, for review", got, err)
	}
	if read, _ := s.FloorPlan(ctx, "a", "a-f1"); !read.Review || !reflect.DeepEqual(read.Placements, scaled) {
		t.Errorf("read back after a plan of another size: %+v", read)
	}
	if err := s.SavePlacements(ctx, "a", "a-f1", scaled, "p-ana", t0.Add(2*time.Hour)); err != nil {
		t.Fatal(err)
	}
	if read, _ := s.FloorPlan(ctx, "a", "a-f1"); read.Review {
		t.Errorf("placements saved again still wait for review")
	}

	tooLarge := plan
	tooLarge.FloorID = "a-f2"
	if _, err := s.PutFloorPlan(ctx, "a", tooLarge, make([]byte, domain.MaxPlanBytes+1)); !errors.Is(err, domain.ErrLimit) {
		t.Errorf("a plan of 10 MB and a byte: %v; want ErrLimit", err)
	}
	tooLarge.Width = domain.MaxPlanSide + 1
	if _, err := s.PutFloorPlan(ctx, "a", tooLarge, first); !errors.Is(err, domain.ErrLimit) {
		t.Errorf("a plan of 8,001 pixels a side: %v; want ErrLimit", err)
	}
	if _, err := s.FloorPlan(ctx, "a", "a-f2"); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("a refused plan was kept: %v", err)
	}
	many := domain.Placements{Rooms: map[string][]domain.PlanPoint{"a-r1": make([]domain.PlanPoint, domain.MaxRoomPoints+1)}}
	var pe *domain.PlacementError
	if err := s.SavePlacements(ctx, "a", "a-f1", many, "p-ana", t0); !errors.As(err, &pe) || pe.Problem != domain.TooManyPoints {
		t.Errorf("a room of %d corners: %v; want TooManyPoints", domain.MaxRoomPoints+1, err)
	}

	if _, err := s.FloorPlan(ctx, "b", "a-f1"); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("another account reads the plan: %v", err)
	}
	if _, _, err := s.FloorPlanImage(ctx, "b", "a-f1"); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("another account reads the image: %v", err)
	}
	if err := s.RemoveFloorPlan(ctx, "b", "a-f1"); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("another account removes the plan: %v", err)
	}
	if err := s.SavePlacements(ctx, "b", "a-f1", placed, "p-ana", t0); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("another account places on the plan: %v", err)
	}

	if err := s.RemoveFloorPlan(ctx, "a", "a-f1"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.FloorPlanImage(ctx, "a", "a-f1"); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("the image of a removed plan: %v", err)
	}
	if err := s.RemoveFloorPlan(ctx, "a", "a-f1"); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("removing it again: %v; want ErrNotFound", err)
	}
	if err := s.SavePlacements(ctx, "a", "a-f1", placed, "p-ana", t0); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("placing on a removed plan: %v; want ErrNotFound", err)
	}
	again, err := s.PutFloorPlan(ctx, "a", plan, first)
	if err != nil || len(again.Placements.Locations)+len(again.Placements.Rooms) != 0 || again.Review {
		t.Errorf("a plan put after one was removed = %+v, %v; want no placements", again, err)
	}
	if read, _ := s.FloorPlan(ctx, "a", "a-f1"); len(read.Placements.Locations)+len(read.Placements.Rooms) != 0 {
		t.Errorf("a removed plan's placements came back: %+v", read.Placements)
	}
}
