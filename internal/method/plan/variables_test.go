package plan_test

import (
	"strings"
	"testing"

	"github.com/dbdyno/dbdyno/internal/method/plan"
)

const withVars = `name: v
variables:
  target: sqlite://v.db
  vus: 2
  scale: 1
targets: ["${target}"]
labels: {size: "scale-${scale}"}
steps:
  - build: {workload: tpcc, warehouses: "${scale}"}
  - run: {workload: tpcc, vus: "${vus}", duration: 10s}
`

// A plan's variables are its defaults, --var sets them, and every ${name} takes the value: a study written
// once runs at a tiny size on the embedded default and at its own on the servers. What is not declared is
// refused, naming it; the hash covers the values, so a resumed plan is the same plan with the same variables.
func TestPlanVariables(t *testing.T) {
	p, err := plan.ParseWith("v.yaml", []byte(withVars), nil)
	if err != nil {
		t.Fatal(err)
	}
	if p.Targets[0] != "sqlite://v.db" || p.Labels["size"] != "scale-1" || !strings.Contains(strings.Join(p.Steps[1].Args, " "), "--vus 2") {
		t.Fatalf("defaults: targets %v labels %v step %v", p.Targets, p.Labels, p.Steps[1].Args)
	}
	q, err := plan.ParseWith("v.yaml", []byte(withVars), map[string]string{"target": "duckdb://w.duckdb", "vus": "1,4", "scale": "3"})
	if err != nil {
		t.Fatal(err)
	}
	if q.Targets[0] != "duckdb://w.duckdb" || q.Labels["size"] != "scale-3" || !strings.Contains(strings.Join(q.Steps[1].Args, " "), "--vus 1,4") ||
		!strings.Contains(strings.Join(q.Steps[0].Args, " "), "--warehouses 3") {
		t.Fatalf("set: targets %v labels %v steps %v %v", q.Targets, q.Labels, q.Steps[0].Args, q.Steps[1].Args)
	}
	if p.Hash == q.Hash {
		t.Error("the same hash for other variables: --resume would take one study's journal for the other's")
	}
	if _, err := plan.ParseWith("v.yaml", []byte(withVars), map[string]string{"vu": "3"}); err == nil || !strings.Contains(err.Error(), "--var vu: the plan has no such variable (it declares scale, target, vus") {
		t.Errorf("an unknown --var: %v", err)
	}
	bad := strings.Replace(withVars, `"${vus}"`, `"${users}"`, 1)
	if _, err := plan.ParseWith("v.yaml", []byte(bad), nil); err == nil || err.Error() != "v.yaml:10: ${users} is not a variable of the plan: declare it under variables: (users: its default)" {
		t.Errorf("an undeclared use: %v", err)
	}
}
