// Package kubernetes holds the manifests of a sharded run on Kubernetes (an Indexed Job of shards, the plan in
// a ConfigMap, a clock agent, a final merge Job) and, in its test only, their check against the Kubernetes API
// types: nothing of dbdyno's binary imports it, so the binary does not depend on k8s.io.
package kubernetes

import (
	"bytes"
	"fmt"
	"net/url"
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
	starts := map[string]bool{}
	for _, i := range []int{0, 1, n - 1} {
		run := runShard(t, c, plan, "/bin/sh", fmt.Sprint(i))
		if run.err != nil {
			t.Fatalf("the shard script with index %d: %v (%s)", i, run.err, run.stderr)
		}
		args := run.args
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
		if args[0] != "tpcc" || args[1] != "run" || len(flag("--clock-ref")) != 1 || len(flag("--target")) != 1 ||
			!strings.HasPrefix(flag("--target")[0], "postgres://") || !strings.HasPrefix(run.env["DBDYNO_STORE"], "postgres://") {
			t.Fatalf("index %d runs %q, DBDYNO_STORE %q", i, args, run.env["DBDYNO_STORE"])
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

// The shard script keeps every password out of the process arguments (which anyone on the node reads, ps):
// the target's reaches dbdyno in DBDYNO_PASSWORD, byte for byte, the store's inside DBDYNO_STORE's URL,
// percent-encoded so that @ / # : % ? and the rest stay in it; the merge reads the store's in DBDYNO_PASSWORD.
// An empty, missing, non-numeric or out-of-range completion index is refused in one line, before dbdyno runs.
// The script runs in every shell at hand (/bin/sh, bash, dash, busybox), with the manifest's own environment:
// the plan's ConfigMap and the container's env entries, the Secret's values taken from testSecrets.
func TestShardScriptKeepsPasswordsOutOfArguments(t *testing.T) {
	m := load(t)
	plan, shards, merge := m.configMaps["dbdyno-tpcc-plan"], m.jobs["dbdyno-tpcc-shards"], m.jobs["dbdyno-tpcc-merge"]
	if plan == nil || shards == nil || merge == nil {
		t.Fatalf("want the ConfigMap dbdyno-tpcc-plan and the Jobs dbdyno-tpcc-shards and dbdyno-tpcc-merge")
	}
	n, _ := strconv.Atoi(plan.Data["SHARDS"])
	c := shards.Spec.Template.Spec.Containers[0]
	script := c.Args[0]
	// Kubernetes expands $(NAME) in args and turns $$ into $: the script must use the shell's ${NAME} only
	for _, v := range append(regexp.MustCompile(`\$\([A-Za-z_][A-Za-z0-9_]*\)`).FindAllString(script, -1), regexp.MustCompile(`\$\$`).FindAllString(script, -1)...) {
		t.Fatalf("the shard script holds %q, which Kubernetes would expand before the shell runs it", v)
	}
	if k := secretKey(c, "DBDYNO_PASSWORD"); k != "target" {
		t.Fatalf("the shard's DBDYNO_PASSWORD is the Secret's key %q, want target", k)
	}
	secrets := []string{testSecrets["target"], testSecrets["store"]}
	shells := 0
	for _, sh := range [][]string{{"/bin/sh"}, {"bash"}, {"dash"}, {"busybox", "sh"}} {
		if _, err := exec.LookPath(sh[0]); err != nil {
			continue
		}
		shells++
		name := strings.Join(sh, " ")
		run := runShard(t, c, plan, name, "3")
		if run.err != nil {
			t.Fatalf("%s: the shard script: %v (%s)", name, run.err, run.stderr)
		}
		for _, a := range run.args {
			for _, p := range secrets {
				if strings.Contains(a, p) || strings.Contains(a, url.QueryEscape(p)) || strings.Contains(a, url.PathEscape(p)) {
					t.Fatalf("%s: a password in dbdyno's argument %q", name, a)
				}
			}
			if strings.HasPrefix(a, "--store") || regexp.MustCompile(`://[^/@]*:[^/@]*@`).MatchString(a) {
				t.Fatalf("%s: a credential in dbdyno's argument %q", name, a)
			}
		}
		if got := run.env["DBDYNO_PASSWORD"]; got != testSecrets["target"] {
			t.Fatalf("%s: DBDYNO_PASSWORD is %q, want the target's password %q", name, got, testSecrets["target"])
		}
		if i := slices.Index(run.args, "--target"); i < 0 || run.args[i+1] != "postgres://"+plan.Data["TARGET_USER"]+"@"+plan.Data["TARGET_ADDR"] {
			t.Fatalf("%s: dbdyno %q", name, run.args)
		}
		u, err := url.Parse(run.env["DBDYNO_STORE"])
		if err != nil {
			t.Fatalf("%s: DBDYNO_STORE is no URL: %v", name, err)
		}
		pw, _ := u.User.Password()
		if u.Scheme != "postgres" || u.User.Username() != plan.Data["STORE_USER"] || pw != testSecrets["store"] || u.Host+u.Path != plan.Data["STORE_ADDR"] {
			t.Fatalf("%s: DBDYNO_STORE holds user %q, password %q, at %s%s: want %s, %q, %s", name, u.User.Username(), pw, u.Host, u.Path,
				plan.Data["STORE_USER"], testSecrets["store"], plan.Data["STORE_ADDR"])
		}
		if run.env["STORE_PASSWORD"] != "unset" {
			t.Fatalf("%s: STORE_PASSWORD is still in dbdyno's environment", name)
		}
		// an index that is not the pod's completion index: one line, and dbdyno does not run
		for _, bad := range []string{"", "unset", "x1", "-1", fmt.Sprint(n)} {
			run := runShard(t, c, plan, name, bad)
			if run.err == nil || run.ran || strings.Count(run.stderr, "\n") != 1 || !strings.HasPrefix(run.stderr, "dbdyno: JOB_COMPLETION_INDEX") {
				t.Fatalf("%s: with JOB_COMPLETION_INDEX %q: %v, dbdyno ran %v, stderr %q", name, bad, run.err, run.ran, run.stderr)
			}
		}
	}
	if shells == 0 {
		t.Fatalf("no shell to run the shard script in")
	}
	// the merge: the store's URL without a password, the password in DBDYNO_PASSWORD
	mc := merge.Spec.Template.Spec.Containers[0]
	if k := secretKey(mc, "DBDYNO_PASSWORD"); k != "store" {
		t.Fatalf("the merge's DBDYNO_PASSWORD is the Secret's key %q, want store", k)
	}
	for _, a := range mc.Args {
		if strings.Contains(a, "PASSWORD") || regexp.MustCompile(`://[^/@]*:[^/@]*@`).MatchString(a) {
			t.Fatalf("the merge's argument %q holds a password", a)
		}
	}
}

// testSecrets stand for the Secret dbdyno-passwords: every character a URL gives a meaning to, and some the
// shell does.
var testSecrets = map[string]string{
	"target":      "p@ss/w#rd:%?x é'\"$`\\!*",
	"store":       "s@t/o#r:%41?e é+&=;'\"\\$`!\tx\ny*[a]",
	"agent-token": "t0ken",
}

// secretKey is the key of the Secret that a container's environment variable name comes from ("" if none).
func secretKey(c corev1.Container, name string) string {
	for _, e := range c.Env {
		if e.Name == name && e.ValueFrom != nil && e.ValueFrom.SecretKeyRef != nil && e.ValueFrom.SecretKeyRef.Name == "dbdyno-passwords" {
			return e.ValueFrom.SecretKeyRef.Key
		}
	}
	return ""
}

type shardRun struct {
	args   []string          // the arguments dbdyno was run with
	env    map[string]string // its DBDYNO_PASSWORD, DBDYNO_STORE, and STORE_PASSWORD ("unset" when it is)
	ran    bool
	stderr string
	err    error
}

// runShard runs the shard container's script in shell with the environment the manifest gives it (index the
// completion index; "unset" leaves JOB_COMPLETION_INDEX out) and a stand-in dbdyno on PATH that records its
// arguments and environment.
func runShard(t *testing.T, c corev1.Container, plan *corev1.ConfigMap, shell, index string) shardRun {
	t.Helper()
	dir := t.TempDir()
	stub := "#!/bin/sh\nd='" + dir + "'\nprintf '%s\\0' \"$@\" > \"$d/args\"\nprintf '%s' \"$DBDYNO_PASSWORD\" > \"$d/DBDYNO_PASSWORD\"\n" +
		"printf '%s' \"$DBDYNO_STORE\" > \"$d/DBDYNO_STORE\"\nprintf '%s' \"${STORE_PASSWORD-unset}\" > \"$d/STORE_PASSWORD\"\n"
	if err := os.WriteFile(filepath.Join(dir, "dbdyno"), []byte(stub), 0o755); err != nil {
		t.Fatal(err)
	}
	env := []string{"PATH=" + dir + ":/usr/bin:/bin", "LANG=C.UTF-8"}
	for _, f := range c.EnvFrom {
		if f.ConfigMapRef == nil || f.ConfigMapRef.Name != plan.Name {
			t.Fatalf("the container's environment comes from %+v, not the plan", f)
		}
		for k, v := range plan.Data {
			env = append(env, k+"="+v)
		}
	}
	for _, e := range c.Env {
		switch {
		case e.ValueFrom == nil:
			env = append(env, e.Name+"="+e.Value)
		case e.ValueFrom.FieldRef != nil && e.Name == "JOB_COMPLETION_INDEX":
			if index != "unset" {
				env = append(env, e.Name+"="+index)
			}
		case e.ValueFrom.ConfigMapKeyRef != nil && e.ValueFrom.ConfigMapKeyRef.Name == "dbdyno-tpcc-start" && e.ValueFrom.ConfigMapKeyRef.Key == "START_AT":
			env = append(env, e.Name+"=2030-01-01T00:00:00Z")
		case e.ValueFrom.SecretKeyRef != nil && e.ValueFrom.SecretKeyRef.Name == "dbdyno-passwords":
			v, ok := testSecrets[e.ValueFrom.SecretKeyRef.Key]
			if !ok {
				t.Fatalf("%s: no key %q in the Secret", e.Name, e.ValueFrom.SecretKeyRef.Key)
			}
			env = append(env, e.Name+"="+v)
		default:
			t.Fatalf("%s comes from %+v, which this test does not stand in for", e.Name, e.ValueFrom)
		}
	}
	sh := strings.Fields(shell)
	cmd := exec.Command(sh[0], append(sh[1:], "-c", c.Args[0])...)
	cmd.Env = env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	r := shardRun{err: cmd.Run(), stderr: stderr.String(), env: map[string]string{}}
	b, err := os.ReadFile(filepath.Join(dir, "args"))
	if err != nil {
		return r
	}
	r.ran = true
	r.args = strings.Split(strings.TrimSuffix(string(b), "\x00"), "\x00")
	for _, k := range []string{"DBDYNO_PASSWORD", "DBDYNO_STORE", "STORE_PASSWORD"} {
		v, _ := os.ReadFile(filepath.Join(dir, k))
		r.env[k] = string(v)
	}
	return r
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
