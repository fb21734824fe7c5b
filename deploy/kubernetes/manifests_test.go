// Package kubernetes holds the manifests of a sharded run on Kubernetes (an Indexed Job of shards, the plan in
// a ConfigMap, a clock agent, a final merge Job) and, in its test only, their check against the Kubernetes API
// types: nothing of dbdyno's binary imports it, so the binary does not depend on k8s.io.
package kubernetes

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/yaml"
)

// manifests are the YAML files' documents, each decoded strictly (an unknown or misspelt field fails) into
// the API type of its kind.
type manifests struct {
	configMaps map[string]*corev1.ConfigMap
	jobs       map[string]*batchv1.Job
	deploys    map[string]*appsv1.Deployment
	services   map[string]*corev1.Service
	accounts   map[string]*corev1.ServiceAccount
	roles      map[string]*rbacv1.Role
	bindings   map[string]*rbacv1.RoleBinding
	files      []string
}

func load(t *testing.T) *manifests {
	t.Helper()
	m := &manifests{configMaps: map[string]*corev1.ConfigMap{}, jobs: map[string]*batchv1.Job{}, deploys: map[string]*appsv1.Deployment{},
		services: map[string]*corev1.Service{}, accounts: map[string]*corev1.ServiceAccount{}, roles: map[string]*rbacv1.Role{},
		bindings: map[string]*rbacv1.RoleBinding{}}
	files, err := filepath.Glob("*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no manifests (%v)", err)
	}
	for _, f := range files {
		if f == "kustomization.yaml" {
			continue
		}
		m.files = append(m.files, f)
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, doc := range regexp.MustCompile(`(?m)^---\s*$`).Split(string(b), -1) {
			if strings.TrimSpace(stripComments(doc)) == "" {
				continue
			}
			var tm metav1.TypeMeta
			if err := yaml.Unmarshal([]byte(doc), &tm); err != nil {
				t.Fatalf("%s, document %d: %v", f, i+1, err)
			}
			var obj interface{ GetName() string }
			switch tm.APIVersion + " " + tm.Kind {
			case "v1 ConfigMap":
				obj = &corev1.ConfigMap{}
			case "batch/v1 Job":
				obj = &batchv1.Job{}
			case "apps/v1 Deployment":
				obj = &appsv1.Deployment{}
			case "v1 Service":
				obj = &corev1.Service{}
			case "v1 ServiceAccount":
				obj = &corev1.ServiceAccount{}
			case "rbac.authorization.k8s.io/v1 Role":
				obj = &rbacv1.Role{}
			case "rbac.authorization.k8s.io/v1 RoleBinding":
				obj = &rbacv1.RoleBinding{}
			default:
				t.Fatalf("%s, document %d: kind %q of %q is not one this test decodes", f, i+1, tm.Kind, tm.APIVersion)
			}
			if err := yaml.UnmarshalStrict([]byte(doc), obj); err != nil {
				t.Fatalf("%s, document %d (%s): %v", f, i+1, tm.Kind, err)
			}
			name := obj.GetName()
			if name == "" {
				t.Fatalf("%s, document %d (%s) has no name", f, i+1, tm.Kind)
			}
			dup := false
			switch o := obj.(type) {
			case *corev1.ConfigMap:
				_, dup = m.configMaps[name]
				m.configMaps[name] = o
			case *batchv1.Job:
				_, dup = m.jobs[name]
				m.jobs[name] = o
			case *appsv1.Deployment:
				_, dup = m.deploys[name]
				m.deploys[name] = o
			case *corev1.Service:
				_, dup = m.services[name]
				m.services[name] = o
			case *corev1.ServiceAccount:
				_, dup = m.accounts[name]
				m.accounts[name] = o
			case *rbacv1.Role:
				_, dup = m.roles[name]
				m.roles[name] = o
			case *rbacv1.RoleBinding:
				_, dup = m.bindings[name]
				m.bindings[name] = o
			}
			if dup {
				t.Fatalf("%s: a second %s %s", f, tm.Kind, name)
			}
		}
	}
	return m
}

func stripComments(doc string) string {
	var out []string
	for _, l := range strings.Split(doc, "\n") {
		if !strings.HasPrefix(strings.TrimSpace(l), "#") {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// The kustomization names every manifest (and nothing else), strictly as kustomize's fields.
func TestKustomizationNamesEveryManifest(t *testing.T) {
	m := load(t)
	var k struct {
		APIVersion string   `json:"apiVersion"`
		Kind       string   `json:"kind"`
		Resources  []string `json:"resources"`
		Labels     []struct {
			Pairs map[string]string `json:"pairs"`
		} `json:"labels"`
		Images []struct {
			Name    string `json:"name"`
			NewTag  string `json:"newTag"`
			NewName string `json:"newName"`
		} `json:"images"`
	}
	b, err := os.ReadFile("kustomization.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.UnmarshalStrict(b, &k); err != nil {
		t.Fatal(err)
	}
	if k.Kind != "Kustomization" || k.APIVersion != "kustomize.config.k8s.io/v1beta1" {
		t.Fatalf("kustomization.yaml is %s %s", k.APIVersion, k.Kind)
	}
	got, want := slices.Sorted(slices.Values(k.Resources)), slices.Sorted(slices.Values(m.files))
	if !slices.Equal(got, want) {
		t.Fatalf("kustomization.yaml lists %v, the directory holds %v", got, want)
	}
}

// The shard wiring: an Indexed Job of as many completions as parallelism as the plan's SHARDS; the completion
// index reaches --shard as index+1 of SHARDS (the shell script run with each index, through a stand-in
// dbdyno that prints its arguments); every shard has the same --start-at and a label naming its part; the
// merge Job names each of the SHARDS parts once, waits for the shards Job, and may read it; passwords come
// only from the Secret, never literal.
func TestShardWiring(t *testing.T) {
	m := load(t)
	plan := m.configMaps["dbdyno-tpcc-plan"]
	shards, merge := m.jobs["dbdyno-tpcc-shards"], m.jobs["dbdyno-tpcc-merge"]
	if plan == nil || shards == nil || merge == nil {
		t.Fatalf("want the ConfigMap dbdyno-tpcc-plan and the Jobs dbdyno-tpcc-shards and dbdyno-tpcc-merge")
	}
	n, err := strconv.Atoi(plan.Data["SHARDS"])
	if err != nil || n < 1 {
		t.Fatalf("the plan's SHARDS %q", plan.Data["SHARDS"])
	}
	s := shards.Spec
	if s.CompletionMode == nil || *s.CompletionMode != batchv1.IndexedCompletion || s.Completions == nil || s.Parallelism == nil ||
		int(*s.Completions) != n || int(*s.Parallelism) != n {
		t.Fatalf("the shards Job: completion mode %s, completions %s, parallelism %s; want Indexed, %d, %d", deref(s.CompletionMode), deref(s.Completions), deref(s.Parallelism), n, n)
	}
	if s.BackoffLimitPerIndex == nil || *s.BackoffLimitPerIndex != 0 || s.Template.Spec.RestartPolicy != corev1.RestartPolicyNever {
		t.Fatalf("a failed shard must not run again (outside the window): backoffLimitPerIndex 0, restartPolicy Never")
	}
	if len(s.Template.Spec.Containers) != 1 {
		t.Fatalf("the shard pod has %d containers", len(s.Template.Spec.Containers))
	}
	c := s.Template.Spec.Containers[0]
	env := map[string]corev1.EnvVar{}
	for _, e := range c.Env {
		env[e.Name] = e
	}
	if e := env["JOB_COMPLETION_INDEX"]; e.ValueFrom == nil || e.ValueFrom.FieldRef == nil ||
		e.ValueFrom.FieldRef.FieldPath != "metadata.annotations['batch.kubernetes.io/job-completion-index']" {
		t.Fatalf("JOB_COMPLETION_INDEX is not the pod's completion index: %+v", e)
	}
	checkSecrets(t, "shard", c)
	if len(c.Command) != 2 || c.Command[1] != "-c" || len(c.Args) != 1 {
		t.Fatalf("the shard runs %v %v: want a shell script", c.Command, c.Args)
	}
	// the script run for the first and last index through a stand-in dbdyno: the index reaches --shard
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "dbdyno"), []byte("#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\"; done\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	starts := map[string]bool{}
	for _, i := range []int{0, 1, n - 1} {
		cmd := exec.Command("/bin/sh", "-c", c.Args[0])
		cmd.Env = []string{"PATH=" + dir + ":/usr/bin:/bin", "JOB_COMPLETION_INDEX=" + fmt.Sprint(i), "START_AT=2030-01-01T00:00:00Z",
			"TARGET_PASSWORD=t-secret", "STORE_PASSWORD=s-secret"}
		for k, v := range plan.Data {
			cmd.Env = append(cmd.Env, k+"="+v)
		}
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("the shard script with index %d: %v", i, err)
		}
		args := strings.Split(strings.TrimSpace(string(out)), "\n")
		flag := func(name string) []string {
			var vs []string
			for j, a := range args {
				if a == name && j+1 < len(args) {
					vs = append(vs, args[j+1])
				}
			}
			return vs
		}
		if got := flag("--shard"); len(got) != 1 || got[0] != fmt.Sprintf("%d/%d", i+1, n) {
			t.Fatalf("index %d runs --shard %v, want %d/%d (%q)", i, got, i+1, n, args)
		}
		if !slices.Contains(flag("--label"), fmt.Sprintf("part=shard-%d", i+1)) || !slices.Contains(flag("--label"), "study="+plan.Data["RUN_NAME"]) {
			t.Fatalf("index %d labels its run %v", i, flag("--label"))
		}
		if t0 := flag("--start-at"); len(t0) == 1 {
			starts[t0[0]] = true
		}
		if args[0] != "tpcc" || args[1] != "run" || len(flag("--clock-ref")) != 1 || !strings.HasPrefix(flag("--store")[0], "postgres://") ||
			!strings.Contains(flag("--target")[0], ":t-secret@") {
			t.Fatalf("index %d runs %q", i, args)
		}
	}
	if len(starts) != 1 || !starts["2030-01-01T00:00:00Z"] {
		t.Fatalf("the shards start at %v: want one --start-at, START_AT", starts)
	}

	// the merge names every shard once, by its labels, and waits for the shards Job
	mp := merge.Spec.Template.Spec
	if len(mp.Containers) != 1 || len(mp.InitContainers) != 1 {
		t.Fatalf("the merge pod: %d containers, %d init containers", len(mp.Containers), len(mp.InitContainers))
	}
	mc := mp.Containers[0]
	checkSecrets(t, "merge", mc)
	if len(mc.Args) < 2 || mc.Args[0] != "results" || mc.Args[1] != "merge" {
		t.Fatalf("the merge runs %v", mc.Args)
	}
	var parts []string
	for _, a := range mc.Args {
		if strings.HasPrefix(a, "label:") {
			parts = append(parts, a)
		}
	}
	if len(parts) != n {
		t.Fatalf("the merge names %d shards, the Job runs %d", len(parts), n)
	}
	for i := 1; i <= n; i++ {
		if want := fmt.Sprintf("label:study=$(RUN_NAME),part=shard-%d", i); !slices.Contains(parts, want) {
			t.Fatalf("the merge does not name shard %d (%s)", i, want)
		}
	}
	if w := strings.Join(mp.InitContainers[0].Args, " "); !strings.Contains(w, "job "+shards.Name+" ") {
		t.Fatalf("the merge waits for %q, not the shards Job %s", w, shards.Name)
	}
	if mp.ServiceAccountName == "" || m.accounts[mp.ServiceAccountName] == nil {
		t.Fatalf("the merge's service account %q is not among the manifests", mp.ServiceAccountName)
	}
	bound := false
	for _, b := range m.bindings {
		r := m.roles[b.RoleRef.Name]
		if b.RoleRef.Kind != "Role" || r == nil || len(b.Subjects) != 1 || b.Subjects[0].Name != mp.ServiceAccountName {
			continue
		}
		for _, rule := range r.Rules {
			if slices.Contains(rule.APIGroups, "batch") && slices.Contains(rule.Resources, "jobs") && slices.Contains(rule.Verbs, "get") {
				bound = true
			}
		}
	}
	if !bound || merge.Spec.BackoffLimit == nil || *merge.Spec.BackoffLimit != 0 {
		t.Fatalf("the merge may not read the shards Job (a Role with get on batch jobs bound to its account), or runs more than once")
	}
	// the clock reference the plan names is served
	if ref := plan.Data["CLOCK_REF"]; m.services["dbdyno-clock"] == nil || !strings.Contains(ref, "//dbdyno-clock:") {
		t.Fatalf("--clock-ref %s: no Service dbdyno-clock", ref)
	}
}

// checkSecrets: a container's passwords come from the Secret (secretKeyRef), and no value in its spec holds
// one literally.
func checkSecrets(t *testing.T, who string, c corev1.Container) {
	t.Helper()
	for _, e := range c.Env {
		if strings.Contains(e.Name, "PASSWORD") && (e.Value != "" || e.ValueFrom == nil || e.ValueFrom.SecretKeyRef == nil) {
			t.Fatalf("%s: %s is not from a Secret", who, e.Name)
		}
	}
	b, _ := yaml.Marshal(c)
	if bytes.Contains(b, []byte("password:")) || regexp.MustCompile(`://[^$:/@]+:[^$/@]+@`).Match(b) {
		t.Fatalf("%s: a literal password in the container's spec", who)
	}
}

func deref[T any](p *T) string {
	if p == nil {
		return "unset"
	}
	return fmt.Sprint(*p)
}
