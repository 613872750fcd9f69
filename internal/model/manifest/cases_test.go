package manifest

import (
	"strings"

	"k8s.io/apimachinery/pkg/runtime/schema"
)

// want is a problem a case expects: its check, severity, path and words of
// its message.
type want struct {
	check Check
	sev   Severity
	path  string
	words []string
	line  int // checked when not 0
}

// serverMode says how the agreement test (agree_test.go) puts a case to
// the API server.
type serverMode int

const (
	asHelm  serverMode = iota // converted to JSON as Helm does, created with a server-side dry run
	asYAML                    // the YAML text itself (duplicate keys, which Helm's conversion drops)
	offline                   // the server cannot judge it (no kind, not a mapping) or needs what is not there (an unknown CRD), or another target release
)

// docCase is a manifest with what the Checker must say about it.
type docCase struct {
	name    string
	doc     string
	version Version            // the target, Default when zero
	crds    []schema.GroupKind // Checker.CRDs
	want    []want             // exactly these problems
	server  serverMode
}

// testGroup is the group of the CustomResourceDefinition the agreement test
// installs, which some cases use.
const testGroup = "manifest-test.catalogist.dev"

var widget = schema.GroupKind{Group: testGroup, Kind: "Widget"}

// deployment is a valid Deployment, with its selector and pod labels
// replaceable.
func deployment(name, selector, podLabels string) string {
	return `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ` + name + `
  labels:
    app.kubernetes.io/name: web
spec:
  replicas: 2
` + selector + `
  template:
    metadata:
      labels:
` + podLabels + `
    spec:
      containers:
      - name: web
        image: nginx:1.27
        ports:
        - containerPort: 80
        resources:
          limits: {cpu: 500m, memory: 128Mi}
`
}

const (
	selectorWeb = "  selector:\n    matchLabels:\n      app: web"
	labelsWeb   = "        app: web"
)

// podSpec is a minimal pod spec for workloads, at an indentation.
func podSpec(indent int, restart string) string {
	pad := strings.Repeat(" ", indent)
	s := pad + "spec:\n" + pad + "  containers:\n" + pad + "  - name: c\n" + pad + "    image: busybox:1.36\n"
	if restart != "" {
		s += pad + "  restartPolicy: " + restart + "\n"
	}
	return s
}

func statefulSet(name, selector, podLabels string) string {
	return `apiVersion: apps/v1
kind: StatefulSet
metadata:
  name: ` + name + `
spec:
  serviceName: db
` + selector + `
  template:
    metadata:
      labels:
` + podLabels + "\n" + podSpec(4, "")
}

func job(name, extra, podLabels string) string {
	return `apiVersion: batch/v1
kind: Job
metadata:
  name: ` + name + `
spec:
` + extra + `  template:
    metadata:
      labels:
        app: batch
` + podLabels + podSpec(4, "Never")
}

func cronJob(name, jobTemplateMeta string) string {
	return `apiVersion: batch/v1
kind: CronJob
metadata:
  name: ` + name + `
spec:
  schedule: "*/5 * * * *"
  jobTemplate:
` + jobTemplateMeta + `    spec:
      template:
` + podSpec(8, "OnFailure")
}

func configMap(name, extra string) string {
	return "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: " + name + "\n" + extra + "data:\n  key: value\n"
}

func service(name, port string) string {
	return `apiVersion: v1
kind: Service
metadata:
  name: ` + name + `
spec:
  selector:
    app: web
  ports:
  - name: http
    port: ` + port + `
    targetPort: 8080
`
}

// cases are the table of manifests: valid ones of the common kinds, and
// for each check ones it refuses.
var cases = []docCase{
	// Valid manifests: no problem, and the API server takes them.
	{name: "deployment", doc: deployment("web", selectorWeb, labelsWeb)},
	{name: "service", doc: service("web", "80")},
	{name: "service name starting with a digit (RelaxedServiceNameValidation, 1.36+)", doc: service("1web", "80")},
	{name: "configmap", doc: configMap("settings", "")},
	{name: "secret", doc: "apiVersion: v1\nkind: Secret\nmetadata:\n  name: creds\ntype: Opaque\ndata:\n  password: c2VjcmV0\nstringData:\n  user: admin\n"},
	{name: "ingress", doc: `apiVersion: networking.k8s.io/v1
kind: Ingress
metadata:
  name: web
  annotations:
    nginx.ingress.kubernetes.io/proxy-body-size: 64m
spec:
  ingressClassName: nginx
  tls:
  - hosts: [web.example.org]
    secretName: web-tls
  rules:
  - host: web.example.org
    http:
      paths:
      - path: /
        pathType: Prefix
        backend:
          service:
            name: web
            port: {number: 80}
`},
	{name: "statefulset", doc: statefulSet("db", "  selector:\n    matchLabels: {app: db}", "        app: db")},
	{name: "role", doc: "apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata:\n  name: reader\nrules:\n- apiGroups: ['']\n  resources: [pods]\n  verbs: [get, list]\n"},
	{name: "clusterrole with a colon", doc: "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata:\n  name: system:foo\nrules:\n- nonResourceURLs: [/healthz]\n  verbs: [get]\n"},
	{name: "rolebinding", doc: "apiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata:\n  name: reader:binding\nsubjects:\n- kind: ServiceAccount\n  name: default\nroleRef:\n  apiGroup: rbac.authorization.k8s.io\n  kind: Role\n  name: reader\n"},
	{name: "cronjob", doc: cronJob("nightly", "")},
	{name: "cronjob name of 52 characters", doc: cronJob(strings.Repeat("c", 52), "")},
	{name: "job", doc: job("migrate", "", "")},
	{name: "job with a manual selector", doc: job("migrate", "  manualSelector: true\n  selector:\n    matchLabels: {app: batch}\n", "")},
	{name: "daemonset", doc: "apiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  name: agent\nspec:\n  selector:\n    matchExpressions:\n    - {key: app, operator: In, values: [agent]}\n  template:\n    metadata:\n      labels: {app: agent}\n" + podSpec(4, "")},
	{name: "serviceaccount", doc: "apiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: runner.bot\nautomountServiceAccountToken: false\n"},
	{name: "pvc", doc: "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata:\n  name: data\nspec:\n  accessModes: [ReadWriteOnce]\n  resources:\n    requests: {storage: 10Gi}\n"},
	{name: "hpa", doc: "apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata:\n  name: web\nspec:\n  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}\n  minReplicas: 1\n  maxReplicas: 5\n  metrics:\n  - type: Resource\n    resource:\n      name: cpu\n      target: {type: Utilization, averageUtilization: 80}\n"},
	{name: "pdb name with capitals (only a path segment)", doc: "apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata:\n  name: Web_PDB\nspec:\n  minAvailable: 1\n  selector:\n    matchLabels: {app: web}\n"},
	{name: "networkpolicy", doc: "apiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\nmetadata:\n  name: deny-all\nspec:\n  podSelector: {}\n  policyTypes: [Ingress]\n"},
	{name: "namespace", doc: "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: catalogist-manifest-test\n  labels:\n    pod-security.kubernetes.io/enforce: restricted\n"},
	{name: "priorityclass", doc: "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata:\n  name: catalogist-manifest-test.high\nvalue: 1000\n"},
	{name: "crd", doc: gadgetCRD},
	{name: "quantities written as numbers", doc: "apiVersion: v1\nkind: ResourceQuota\nmetadata:\n  name: quota\nspec:\n  hard:\n    cpu: 4\n    memory: 8Gi\n    pods: 10\n"},
	{name: "comments only", server: offline, doc: "# Source: chart/templates/empty.yaml\n\n# nothing rendered\n"},
	{name: "anchors and aliases", doc: "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: anchors\n  labels: &l\n    app: web\n  annotations: *l\ndata:\n  <<: *l\n  other: x\n"},

	// yaml
	{name: "not yaml", doc: "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: [\n", server: offline,
		want: []want{{check: CheckYAML, sev: Error, words: []string{"not valid YAML", "line 3"}, line: 3}}},
	{name: "a list, not a mapping", doc: "- apiVersion: v1\n- kind: ConfigMap\n", server: offline,
		want: []want{{check: CheckYAML, sev: Error, words: []string{"not a mapping", "a list"}}}},
	{name: "no kind", doc: "apiVersion: v1\nmetadata:\n  name: a\n", server: offline,
		want: []want{{check: CheckYAML, sev: Error, words: []string{"has no kind"}}}},
	{name: "no apiVersion", doc: "kind: ConfigMap\nmetadata:\n  name: a\n", server: offline,
		want: []want{{check: CheckYAML, sev: Error, words: []string{"has no apiVersion"}}}},
	{name: "no name", doc: "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  labels: {app: web}\ndata: {}\n",
		want: []want{{check: CheckYAML, sev: Error, words: []string{"no metadata.name", "refuse a resource without a name"}}}},
	// The API server generates the name; Helm 4's server-side apply refuses
	// the resource first (checked by hand with helm 4.3.1).
	{name: "generateName only", server: offline, doc: "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  generateName: settings-\ndata: {}\n",
		want: []want{{check: CheckYAML, sev: Error, path: "metadata", words: []string{"no metadata.name", "server-side", "--server-side=false"}, line: 3}}},
	{name: "two documents", doc: configMap("a", "") + "---\n" + configMap("b", ""), server: offline,
		want: []want{{check: CheckYAML, sev: Error, words: []string{"more than one YAML document"}, line: 7}}},
	{name: "kind is a number", doc: "apiVersion: v1\nkind: 3\nmetadata: {name: a}\n", server: offline,
		want: []want{{check: CheckYAML, sev: Error, path: "kind", words: []string{"kind is a number, not a string"}, line: 2}}},
	{name: "a bad apiVersion", doc: "apiVersion: apps/v1/beta\nkind: Deployment\nmetadata: {name: a}\n", server: offline,
		want: []want{{check: CheckYAML, sev: Error, path: "apiVersion", words: []string{"not GROUP/VERSION"}}}},

	// fields
	{name: "port as a string", doc: service("web", `"80"`),
		want: []want{{check: CheckFields, sev: Error, path: "spec.ports[0].port", words: []string{`spec.ports[0].port: a string ("80") where the API expects an integer`, "remove the quotes"}, line: 10}}},
	{name: "unknown fields", doc: strings.Replace(deployment("web", selectorWeb, labelsWeb), "  replicas: 2\n", "  replica: 2\n  paused: false\n", 1) + "  foo: bar\n",
		want: []want{
			{check: CheckFields, sev: Error, path: "spec.replica", words: []string{`unknown field "spec.replica"`, `did you mean "replicas"`}, line: 8},
			{check: CheckFields, sev: Error, path: "spec.foo", words: []string{`unknown field "spec.foo"`}, line: 25},
		}},
	{name: "unknown field in a list", doc: strings.Replace(service("web", "80"), "    targetPort: 8080\n", "    targetport: 8080\n", 1),
		want: []want{{check: CheckFields, sev: Error, path: "spec.ports[0].targetport", words: []string{`unknown field "spec.ports[0].targetport"`, `did you mean "targetPort"`}, line: 11}}},
	{name: "unknown field in metadata", doc: configMap("a", "  label:\n    app: web\n"),
		want: []want{{check: CheckFields, sev: Error, path: "metadata.label", words: []string{`unknown field "metadata.label"`, `did you mean "labels"`}}}},
	{name: "containers as a mapping", doc: "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n    name: c\n    image: busybox\n",
		want: []want{{check: CheckFields, sev: Error, path: "spec.containers", words: []string{"a mapping where the API expects a list"}, line: 6}}},
	{name: "bad quantity and env value as a number", doc: "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n  - name: c\n    image: busybox\n    env:\n    - name: PORT\n      value: 8080\n    resources:\n      limits:\n        cpu: 2 cores\n",
		want: []want{
			{check: CheckFields, sev: Error, path: "spec.containers[0].env[0].value", words: []string{"a number (8080) where the API expects a string", "quote it"}, line: 11},
			{check: CheckFields, sev: Error, path: "spec.containers[0].resources.limits[cpu]", words: []string{`("2 cores") is not a quantity`}, line: 14},
		}},
	{name: "secret data not base64", doc: "apiVersion: v1\nkind: Secret\nmetadata:\n  name: s\ndata:\n  password: hunter2!\n",
		want: []want{{check: CheckFields, sev: Error, path: "data[password]", words: []string{"not base64", "stringData"}, line: 6}}},
	{name: "replicas too large and not whole", doc: strings.Replace(deployment("web", selectorWeb, labelsWeb), "  replicas: 2\n", "  replicas: 3000000000\n  revisionHistoryLimit: 1.5\n", 1),
		want: []want{
			{check: CheckFields, sev: Error, path: "spec.replicas", words: []string{"3000000000", "does not fit in 32 bits"}},
			{check: CheckFields, sev: Error, path: "spec.revisionHistoryLimit", words: []string{"1.5", "whole number"}},
		}},
	{name: "label values that YAML reads as a number and a boolean", doc: configMap("a", "  labels:\n    version: 1.0\n    enabled: yes\n"),
		want: []want{
			{check: CheckFields, sev: Error, path: "metadata.labels[version]", words: []string{"a number (1.0) where the API expects a string", "quote it"}, line: 6},
			{check: CheckFields, sev: Error, path: "metadata.labels[enabled]", words: []string{"a boolean (yes) where the API expects a string"}, line: 7},
		}},
	{name: "int-or-string given a boolean", doc: strings.Replace(deployment("web", selectorWeb, labelsWeb), "  replicas: 2\n", "  strategy:\n    rollingUpdate: {maxSurge: true}\n", 1),
		want: []want{{check: CheckFields, sev: Error, path: "spec.strategy.rollingUpdate.maxSurge", words: []string{"an integer or a string"}}}},
	{name: "a wrong type and an unknown field together", doc: strings.Replace(service("web", `"80"`), "  selector:\n", "  selectr: {}\n  selector:\n", 1),
		want: []want{
			{check: CheckFields, sev: Error, path: "spec.selectr", words: []string{`unknown field "spec.selectr"`}},
			{check: CheckFields, sev: Error, path: "spec.ports[0].port", words: []string{"a string"}},
		}},
	{name: "duplicate key", doc: configMap("a", "") + "  key: again\n", server: asYAML,
		want: []want{{check: CheckFields, sev: Error, path: "data[key]", words: []string{`duplicate field "data[key]"`, "keeps only the last value"}, line: 7}}},
	{name: "duplicate key in a list element", doc: service("web", "80") + "    port: 81\n", server: asYAML,
		want: []want{{check: CheckFields, sev: Error, path: "spec.ports[0].port", words: []string{`duplicate field "spec.ports[0].port"`}, line: 12}}},
	{name: "a key a merge brings in, overridden", doc: "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: merged\n  labels: &common\n    app: web\n    tier: front\n  annotations:\n    <<: *common\n    tier: back\n"},
	{name: "duplicate field", doc: "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\nmetadata:\n  name: b\n", server: asYAML,
		want: []want{{check: CheckFields, sev: Error, path: "metadata", words: []string{`duplicate field "metadata"`}, line: 5}}},

	// removed, disabled, deprecated
	{name: "extensions/v1beta1 ingress", doc: "apiVersion: extensions/v1beta1\nkind: Ingress\nmetadata:\n  name: web\nspec:\n  backend:\n    serviceName: web\n    servicePort: 80\n",
		want: []want{{check: CheckRemoved, sev: Error, path: "apiVersion", words: []string{"extensions/v1beta1 Ingress was removed in Kubernetes 1.22; use networking.k8s.io/v1 Ingress"}, line: 1}}},
	{name: "apps/v1beta1 deployment", doc: strings.Replace(deployment("web", selectorWeb, labelsWeb), "apps/v1", "apps/v1beta1", 1),
		want: []want{{check: CheckRemoved, sev: Error, path: "apiVersion", words: []string{"removed in Kubernetes 1.16", "use apps/v1 Deployment"}}}},
	{name: "batch/v1beta1 cronjob", doc: strings.Replace(cronJob("nightly", ""), "batch/v1", "batch/v1beta1", 1),
		want: []want{{check: CheckRemoved, sev: Error, path: "apiVersion", words: []string{"removed in Kubernetes 1.25", "use batch/v1 CronJob"}}}},
	{name: "pod security policy", doc: "apiVersion: policy/v1beta1\nkind: PodSecurityPolicy\nmetadata:\n  name: restricted\nspec: {}\n",
		want: []want{{check: CheckRemoved, sev: Error, path: "apiVersion", words: []string{"removed in Kubernetes 1.25", "Pod Security Admission"}}}},
	{name: "batch/v2alpha1 cronjob", doc: strings.Replace(cronJob("nightly", ""), "batch/v1", "batch/v2alpha1", 1),
		want: []want{{check: CheckRemoved, sev: Error, path: "apiVersion", words: []string{"removed in Kubernetes 1.21", "use batch/v1 CronJob"}}}},
	{name: "autoscaling/v2beta2 hpa", doc: "apiVersion: autoscaling/v2beta2\nkind: HorizontalPodAutoscaler\nmetadata:\n  name: web\nspec:\n  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}\n  maxReplicas: 3\n",
		want: []want{{check: CheckRemoved, sev: Error, path: "apiVersion", words: []string{"removed in Kubernetes 1.26", "autoscaling/v2 HorizontalPodAutoscaler"}}}},
	{name: "flowcontrol v1beta1, whose declared replacement is gone too", doc: "apiVersion: flowcontrol.apiserver.k8s.io/v1beta1\nkind: FlowSchema\nmetadata:\n  name: f\nspec:\n  priorityLevelConfiguration: {name: global-default}\n",
		want: []want{{check: CheckRemoved, sev: Error, path: "apiVersion", words: []string{"removed in Kubernetes 1.26", "use flowcontrol.apiserver.k8s.io/v1 FlowSchema"}}}},
	{name: "networking v1beta1 ingressclass (declared replacement IngressClassList)", doc: "apiVersion: networking.k8s.io/v1beta1\nkind: IngressClass\nmetadata:\n  name: nginx\nspec:\n  controller: k8s.io/ingress-nginx\n",
		want: []want{{check: CheckRemoved, sev: Error, path: "apiVersion", words: []string{"removed in Kubernetes 1.22", "use networking.k8s.io/v1 IngressClass"}}}},
	{name: "crd v1beta1", doc: "apiVersion: apiextensions.k8s.io/v1beta1\nkind: CustomResourceDefinition\nmetadata:\n  name: things.example.org\n",
		want: []want{{check: CheckRemoved, sev: Error, path: "apiVersion", words: []string{"removed in Kubernetes 1.22", "apiextensions.k8s.io/v1 CustomResourceDefinition"}}}},
	{name: "rbac v1alpha1, no longer served", doc: "apiVersion: rbac.authorization.k8s.io/v1alpha1\nkind: Role\nmetadata:\n  name: r\nrules: []\n",
		want: []want{{check: CheckRemoved, sev: Error, path: "apiVersion", words: []string{"no longer served", "use rbac.authorization.k8s.io/v1 Role"}}}},
	{name: "misspelt kind", doc: "apiVersion: apps/v1\nkind: Deploymnet\nmetadata:\n  name: web\n",
		want: []want{{check: CheckRemoved, sev: Error, path: "kind", words: []string{"serves no kind Deploymnet in apps/v1", `did you mean "Deployment"`}, line: 2}}},
	{name: "kind in lower case", doc: "apiVersion: v1\nkind: configmap\nmetadata:\n  name: web\n",
		want: []want{{check: CheckRemoved, sev: Error, path: "kind", words: []string{"use v1 ConfigMap", "case-sensitive"}}}},
	{name: "kind in the wrong group", doc: "apiVersion: v1\nkind: Ingress\nmetadata:\n  name: web\n",
		want: []want{{check: CheckRemoved, sev: Error, path: "kind", words: []string{"serves no kind Ingress in v1", "use networking.k8s.io/v1 Ingress"}}}},
	{name: "a kind that is not a resource", doc: "apiVersion: v1\nkind: Status\nmetadata:\n  name: s\n",
		want: []want{{check: CheckRemoved, sev: Error, path: "kind", words: []string{"not a kind of object the API server creates"}}}},
	{name: "no such version of a built-in group", doc: "apiVersion: apps/v2\nkind: Deployment\nmetadata:\n  name: web\n",
		want: []want{{check: CheckRemoved, sev: Error, path: "apiVersion", words: []string{"no such version", "use apps/v1 Deployment"}}}},
	{name: "beta api off by default, deprecated", doc: "apiVersion: admissionregistration.k8s.io/v1beta1\nkind: MutatingAdmissionPolicy\nmetadata:\n  name: p\nspec:\n  matchConstraints:\n    resourceRules:\n    - {apiGroups: [''], apiVersions: [v1], operations: [CREATE], resources: [pods]}\n  mutations:\n  - patchType: ApplyConfiguration\n    applyConfiguration: {expression: 'Object{}'}\n  reinvocationPolicy: Never\n",
		want: []want{
			{check: CheckDisabled, sev: Warning, path: "apiVersion", words: []string{"a beta API", "--runtime-config=admissionregistration.k8s.io/v1beta1=true", "use admissionregistration.k8s.io/v1 MutatingAdmissionPolicy"}},
			{check: CheckDeprecated, sev: Warning, path: "apiVersion", words: []string{"deprecated since Kubernetes 1.37", "removed in 1.40"}},
		}},
	{name: "alpha api", doc: "apiVersion: scheduling.k8s.io/v1alpha3\nkind: Workload\nmetadata:\n  name: w\nspec: {}\n",
		want: []want{{check: CheckDisabled, sev: Warning, path: "apiVersion", words: []string{"an alpha API", "only where the cluster enables it"}}}},
	{name: "deprecated and served: endpoints", doc: "apiVersion: v1\nkind: Endpoints\nmetadata:\n  name: legacy\nsubsets:\n- addresses: [{ip: 10.1.2.3}]\n  ports: [{port: 80}]\n",
		want: []want{{check: CheckDeprecated, sev: Warning, path: "apiVersion", words: []string{"v1 Endpoints is deprecated since Kubernetes 1.33", "use discovery.k8s.io/v1 EndpointSlice"}}}},
	{name: "not served before the target (1.35)", version: Version{1, 35}, server: offline,
		doc:  "apiVersion: storagemigration.k8s.io/v1\nkind: StorageVersionMigration\nmetadata:\n  name: m\nspec:\n  resource: {group: apps, resource: deployments}\n",
		want: []want{{check: CheckRemoved, sev: Error, path: "apiVersion", words: []string{"not served before Kubernetes 1.37", "the target is 1.35"}}}},
	{name: "served then, off by default (1.35)", version: Version{1, 35}, server: offline,
		doc:  "apiVersion: storagemigration.k8s.io/v1beta1\nkind: StorageVersionMigration\nmetadata:\n  name: m\nspec:\n  resource: {group: apps, resource: deployments}\n",
		want: []want{{check: CheckDisabled, sev: Warning, path: "apiVersion", words: []string{"a beta API that Kubernetes 1.35 serves only where the cluster enables it"}}}},
	{name: "deprecated, not yet removed (1.23)", version: Version{1, 23}, server: offline,
		doc: "apiVersion: autoscaling/v2beta2\nkind: HorizontalPodAutoscaler\nmetadata:\n  name: web\n",
		want: []want{
			{check: CheckDeprecated, sev: Warning, path: "apiVersion", words: []string{"deprecated since Kubernetes 1.23 and will be removed in 1.26"}},
			{check: CheckCustom, sev: Note, words: []string{"no longer in the Kubernetes API this binary is built with"}},
		}},
	{name: "served before its removal (1.21)", version: Version{1, 21}, server: offline,
		doc:  strings.Replace(cronJob("nightly", ""), "batch/v1", "batch/v1beta1", 1),
		want: []want{{check: CheckDeprecated, sev: Warning, path: "apiVersion", words: []string{"deprecated since Kubernetes 1.21", "removed in 1.25", "use batch/v1 CronJob"}}}},

	// names
	{name: "service name with an underscore", doc: service("web_ui", "80"),
		want: []want{{check: CheckNames, sev: Error, path: "metadata.name", words: []string{`"web_ui" is not a valid Service name`, "RFC 1123 label"}, line: 4}}},
	{name: "service name starting with a digit before 1.36", version: Version{1, 35}, doc: service("1web", "80"), server: offline,
		want: []want{{check: CheckNames, sev: Error, path: "metadata.name", words: []string{"DNS-1035 label"}}}},
	{name: "namespace name with a dot", doc: "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: team.a\n",
		want: []want{{check: CheckNames, sev: Error, path: "metadata.name", words: []string{"RFC 1123 label"}}}},
	{name: "statefulset name with a dot", doc: statefulSet("db.main", "  selector:\n    matchLabels: {app: db}", "        app: db"),
		want: []want{{check: CheckNames, sev: Error, path: "metadata.name", words: []string{"not a valid StatefulSet name", "RFC 1123 label"}}}},
	{name: "configmap name with capitals", doc: configMap("Settings", ""),
		want: []want{{check: CheckNames, sev: Error, path: "metadata.name", words: []string{"RFC 1123 subdomain"}}}},
	{name: "deployment name too long", doc: deployment(strings.Repeat("d", 254), selectorWeb, labelsWeb),
		want: []want{{check: CheckNames, sev: Error, path: "metadata.name", words: []string{"253"}}}},
	{name: "cronjob name of 53 characters", doc: cronJob(strings.Repeat("c", 53), ""),
		want: []want{{check: CheckNames, sev: Error, path: "metadata.name", words: []string{"no more than 52 characters"}}}},
	{name: "job name of 64 characters", doc: job(strings.Repeat("j", 64), "", ""),
		want: []want{{check: CheckNames, sev: Error, path: "metadata.name", words: []string{"no more than 63 characters", "batch.kubernetes.io/job-name"}}}},
	{name: "role name with a slash", doc: "apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata:\n  name: team/reader\nrules: []\n",
		want: []want{{check: CheckNames, sev: Error, path: "metadata.name", words: []string{"URL path", "/"}}}},
	{name: "bad namespace", doc: configMap("a", "  namespace: Team_A\n"),
		want: []want{{check: CheckNames, sev: Error, path: "metadata.namespace", words: []string{`"Team_A" is not a valid namespace`}, line: 5}}},
	{name: "bad label key and value", doc: configMap("a", "  labels:\n    app name: web\n    version: "+strings.Repeat("v", 64)+"\n"),
		want: []want{
			{check: CheckNames, sev: Error, path: "metadata.labels[app name]", words: []string{`label "app name": invalid key`}, line: 6},
			{check: CheckNames, sev: Error, path: "metadata.labels[version]", words: []string{"invalid value", "63"}, line: 7},
		}},
	{name: "bad annotation key", doc: configMap("a", "  annotations:\n    example.org/a/b: x\n"),
		want: []want{{check: CheckNames, sev: Error, path: "metadata.annotations[example.org/a/b]", words: []string{"invalid key"}}}},
	{name: "annotations too large", doc: configMap("a", "  annotations:\n    big: "+strings.Repeat("x", 256*1024)+"\n"),
		want: []want{{check: CheckNames, sev: Error, path: "metadata.annotations", words: []string{"too large", "262144"}}}},
	{name: "bad pod template label", doc: deployment("web", selectorWeb, labelsWeb+"\n        tier/x/y: front"),
		want: []want{{check: CheckNames, sev: Error, path: "spec.template.metadata.labels[tier/x/y]", words: []string{"invalid key"}}}},
	{name: "bad cronjob pod template label", doc: cronJob("nightly", "") + "        metadata:\n          labels: {'-x': v}\n",
		want: []want{{check: CheckNames, sev: Error, path: "spec.jobTemplate.spec.template.metadata.labels[-x]", words: []string{"invalid key"}}}},
	{name: "bad job template label: accepted, the Jobs are not", doc: cronJob("nightly", "    metadata:\n      labels: {'a b': c}\n"),
		want: []want{{check: CheckNames, sev: Warning, path: "spec.jobTemplate.metadata.labels[a b]", words: []string{"invalid key", "accepts the CronJob, but refuses each Job"}}}},
	{name: "owner reference without uid", doc: configMap("a", "  ownerReferences:\n  - {apiVersion: v1, kind: ConfigMap, name: b}\n"),
		want: []want{{check: CheckNames, sev: Error, path: "metadata.ownerReferences[0].uid", words: []string{"uid"}}}},
	{name: "bad finalizer", doc: configMap("a", "  finalizers: [Bad Finalizer]\n"),
		want: []want{{check: CheckNames, sev: Error, path: "metadata.finalizers", words: []string{"Bad Finalizer"}}}},
	{name: "finalizer neither standard nor qualified", doc: configMap("a", "  finalizers: [kubernetes, example.org/cleanup, cleanup]\n"),
		want: []want{{check: CheckNames, sev: Error, path: "metadata.finalizers[2]", words: []string{`finalizer "cleanup"`, "example.org/cleanup"}, line: 5}}},
	{name: "unqualified finalizer where only the syntax is checked", doc: "apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata:\n  name: web\n  finalizers: [cleanup]\nspec:\n  maxUnavailable: 1\n  selector: {matchLabels: {app: web}}\n"},
	{name: "crd named wrongly", doc: strings.Replace(gadgetCRD, "name: gadgets.", "name: gizmos.", 1),
		want: []want{{check: CheckNames, sev: Error, path: "metadata.name", words: []string{"spec.names.plural", "gadgets." + testGroup}}}},

	// selector
	{name: "deployment without selector", doc: deployment("web", "", labelsWeb),
		want: []want{{check: CheckSelector, sev: Error, path: "spec.selector", words: []string{"a Deployment needs spec.selector"}}}},
	{name: "deployment with an empty selector", doc: deployment("web", "  selector: {}", labelsWeb),
		want: []want{{check: CheckSelector, sev: Error, path: "spec.selector", words: []string{"may not be empty"}, line: 9}}},
	{name: "deployment selecting other labels", doc: deployment("web", "  selector:\n    matchLabels:\n      app: api", labelsWeb),
		want: []want{{check: CheckSelector, sev: Error, path: "spec.template.metadata.labels", words: []string{"(app=api) does not select the pod template's labels (app=web)"}}}},
	{name: "selector with a bad operator", doc: deployment("web", "  selector:\n    matchExpressions:\n    - {key: app, operator: Equals, values: [web]}", labelsWeb),
		want: []want{{check: CheckSelector, sev: Error, path: "spec.selector.matchExpressions[0].operator", words: []string{"Equals"}}}},
	{name: "statefulset selecting other labels", doc: statefulSet("db", "  selector:\n    matchLabels: {app: db, tier: data}", "        app: db"),
		want: []want{{check: CheckSelector, sev: Error, path: "spec.template.metadata.labels", words: []string{"does not select"}}}},
	{name: "daemonset without selector", doc: "apiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  name: agent\nspec:\n  template:\n    metadata:\n      labels: {app: agent}\n" + podSpec(4, ""),
		want: []want{{check: CheckSelector, sev: Error, path: "spec.selector", words: []string{"a DaemonSet needs spec.selector"}}}},
	{name: "replicaset selecting other labels", doc: "apiVersion: apps/v1\nkind: ReplicaSet\nmetadata:\n  name: rs\nspec:\n  selector:\n    matchLabels: {app: front}\n  template:\n    metadata:\n      labels: {app: back}\n" + podSpec(4, ""),
		want: []want{{check: CheckSelector, sev: Error, path: "spec.template.metadata.labels", words: []string{"does not select"}}}},
	{name: "job with a selector of its own", doc: job("migrate", "  selector:\n    matchLabels: {app: batch}\n", ""),
		want: []want{{check: CheckSelector, sev: Error, path: "spec.selector", words: []string{"generated by the API server", "manualSelector: true"}}}},
	{name: "job with a manual selector missing", doc: job("migrate", "  manualSelector: true\n", ""),
		want: []want{{check: CheckSelector, sev: Error, path: "spec.selector", words: []string{"needs spec.selector"}}}},
	{name: "job with a manual selector selecting other labels", doc: job("migrate", "  manualSelector: true\n  selector:\n    matchLabels: {app: other}\n", ""),
		want: []want{{check: CheckSelector, sev: Error, path: "spec.template.metadata.labels", words: []string{"does not select"}}}},
	{name: "job pod labelled with another job name", doc: job("migrate", "", "        batch.kubernetes.io/job-name: other\n"),
		want: []want{{check: CheckSelector, sev: Error, path: "spec.template.metadata.labels[batch.kubernetes.io/job-name]", words: []string{`must be the Job's name "migrate"`}}}},
	{name: "cronjob job template with a selector", doc: strings.Replace(cronJob("nightly", ""), "    spec:\n      template:", "    spec:\n      selector:\n        matchLabels: {app: x}\n      template:", 1),
		want: []want{{check: CheckSelector, sev: Error, path: "spec.jobTemplate.spec.selector", words: []string{"may not have a selector"}}}},

	// custom
	{name: "a kind of an installed CRD", doc: "apiVersion: " + testGroup + "/v1\nkind: Widget\nmetadata:\n  name: w\n  labels: {app: web}\nspec:\n  size: 3\n",
		want: []want{{check: CheckCustom, sev: Note, words: []string{"not decoded", "not a built-in kind"}}}},
	{name: "a kind of the chart's CRDs", crds: []schema.GroupKind{widget}, doc: "apiVersion: " + testGroup + "/v1\nkind: Widget\nmetadata:\n  name: w\nspec: {}\n",
		want: []want{{check: CheckCustom, sev: Note, words: []string{"not decoded", "CustomResourceDefinition of the chart"}}}},
	{name: "a custom object named as no CRD allows", crds: []schema.GroupKind{widget}, doc: "apiVersion: " + testGroup + "/v1\nkind: Widget\nmetadata:\n  name: Big_Widget\n",
		want: []want{
			{check: CheckCustom, sev: Note, words: []string{"not decoded"}},
			{check: CheckNames, sev: Error, path: "metadata.name", words: []string{"RFC 1123 subdomain"}},
		}},
	{name: "a custom object with a bad label", doc: "apiVersion: " + testGroup + "/v1\nkind: Widget\nmetadata:\n  name: w\n  labels: {'a b': c}\n",
		want: []want{
			{check: CheckCustom, sev: Note, words: []string{"not decoded"}},
			{check: CheckNames, sev: Error, path: "metadata.labels[a b]", words: []string{"invalid key"}},
		}},
	{name: "a custom object with an unknown metadata field", doc: "apiVersion: " + testGroup + "/v1\nkind: Widget\nmetadata:\n  name: w\n  label: {app: web}\n",
		want: []want{
			{check: CheckCustom, sev: Note, words: []string{"not decoded"}},
			{check: CheckFields, sev: Error, path: "metadata.label", words: []string{`unknown field "metadata.label"`, `did you mean "labels"`}},
		}},
	{name: "a custom object with a label YAML reads as a number", doc: "apiVersion: " + testGroup + "/v1\nkind: Widget\nmetadata:\n  name: w\n  labels: {version: 1.0}\n",
		want: []want{
			{check: CheckCustom, sev: Note, words: []string{"not decoded"}},
			{check: CheckFields, sev: Error, path: "metadata.labels[version]", words: []string{"a number (1.0) where the API expects a string"}},
		}},
	{name: "a kind of no known group", server: offline, doc: "apiVersion: cert-manager.io/v1\nkind: Certificate\nmetadata:\n  name: web-tls\nspec:\n  secretName: web-tls\n",
		want: []want{{check: CheckCustom, sev: Note, words: []string{"not a built-in kind", "not known offline"}}}},
	{name: "an aggregated API kind", server: offline, doc: "apiVersion: apiregistration.k8s.io/v1\nkind: APIService\nmetadata:\n  name: v1beta1.metrics.k8s.io\nspec: {}\n",
		want: []want{{check: CheckCustom, sev: Note, words: []string{"aggregator"}}}},

	// list-policy, and lists
	{name: "list item with a resource policy", doc: "apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: kept\n    annotations:\n      helm.sh/resource-policy: keep\n  data: {}\n",
		want: []want{{check: CheckListPolicy, sev: Error, path: "items[0].metadata.annotations[helm.sh/resource-policy]", words: []string{"ignores the annotation helm.sh/resource-policy", "its own document"}, line: 9}}},
	{name: "list items checked one by one", doc: "apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: good}\n- apiVersion: v1\n  kind: Service\n  metadata: {name: bad_name}\n  spec:\n    ports: [{port: \"80\"}]\n",
		want: []want{
			{check: CheckNames, sev: Error, path: "items[1].metadata.name", words: []string{"not a valid Service name"}, line: 9},
			{check: CheckFields, sev: Error, path: "items[1].spec.ports[0].port", words: []string{"a string"}, line: 11},
		}},
	{name: "typed list items inherit their kind", doc: "apiVersion: v1\nkind: ConfigMapList\nitems:\n- metadata: {name: a}\n  date: {}\n",
		want: []want{{check: CheckFields, sev: Error, path: "items[0].date", words: []string{`unknown field "items[0].date"`}}}},
	{name: "a list in a list", doc: "apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: List\n  items:\n  - apiVersion: v1\n    kind: ConfigMap\n    metadata: {name: Inner}\n",
		want: []want{{check: CheckNames, sev: Error, path: "items[0].items[0].metadata.name", words: []string{"RFC 1123 subdomain"}, line: 9}}},
	{name: "items in a deployment", server: offline, doc: deployment("web", selectorWeb, labelsWeb) + "items: []\n",
		want: []want{{check: CheckYAML, sev: Error, path: "items", words: []string{"read this Deployment as a list"}}}},
}

// gadgetCRD is a valid CustomResourceDefinition.
const gadgetCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: gadgets.` + testGroup + `
spec:
  group: ` + testGroup + `
  names: {kind: Gadget, plural: gadgets, singular: gadget, listKind: GadgetList}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        x-kubernetes-preserve-unknown-fields: true
`
