package gencatalog

import (
	"bytes"
	"fmt"
	"math/rand/v2"
)

// Schema size window. The target of each chart is drawn inside
// [targetMin, targetMax]; optional groups are added until it is reached. No
// single group is larger than 4 KB, so the result stays below SizeMax.
const (
	SizeMin   = 55_000
	SizeMax   = 65_000
	targetMin = 57_000
	targetMax = 60_000
)

// chartGen holds what the schema, the values and the templates of one chart
// share.
type chartGen struct {
	r    *rand.Rand
	name string
	f    flavor
	tags []string
	cpu  bounds
	mem  bounds
	gpu  bounds
	disk bounds
}

func (g *chartGen) pick(xs ...string) string { return xs[g.r.IntN(len(xs))] }
func (g *chartGen) chance(percent int) bool  { return g.r.IntN(100) < percent }

// schema builds the whole values.schema.json document.
func (g *chartGen) schema() (obj, error) {
	props := obj{
		{"service", g.service()},
		{"resources", g.resources()},
		{"persistence", g.persistence()},
		{"init", g.init()},
		{"extraEnvVars", g.extraEnvVars()},
		{"kubernetes", g.kubernetes()},
		{"vault", g.vault()},
		{"s3", g.s3()},
		{"git", g.git()},
		{"networking", g.networking()},
		{"discovery", g.discovery()},
		{"security", g.security()},
		{"ingress", g.ingress()},
		{"route", g.route()},
		{"istio", g.istio()},
		{"startupProbe", g.startupProbe()},
		{"nodeSelector", g.nodeSelector()},
		{"tolerations", g.tolerations()},
		{"userPreferences", g.userPreferences()},
		{"global", g.global()},
		{"proxy", g.proxy()},
		{"certificates", g.certificates()},
		{"message", g.message()},
	}
	props = append(props, g.flavorGroups()...)

	root := obj{
		// The draft every chart of the reference catalog declares; Helm
		// checks a schema against its draft's metaschema, which for
		// 2020-12 costs a third more.
		{"$schema", "http://json-schema.org/draft-07/schema#"},
		{"title", g.f.label + " (" + g.name + ")"},
		{"description", g.f.describe()},
		{"type", "object"},
	}
	size := encodedSize(append(root, kv{"properties", props}))
	target := targetMin + g.r.IntN(targetMax-targetMin+1)
	for _, c := range g.r.Perm(len(connectors)) {
		if size >= target {
			break
		}
		conn := connectors[c]
		grp := g.connector(conn)
		size += memberSize(conn.key, grp, 1)
		props = append(props, kv{conn.key, grp})
	}
	doc := append(root, kv{"properties", props})
	if got := encodedSize(doc); got < SizeMin || got > SizeMax {
		return nil, fmt.Errorf("%s: schema is %d bytes, want %d..%d", g.name, got, SizeMin, SizeMax)
	}
	return doc, nil
}

func encodedSize(v any) int {
	var b bytes.Buffer
	encodeJSON(&b, v, 0)
	return b.Len()
}

func (g *chartGen) service() obj {
	img := g.f.image()
	versions := make([]string, len(g.tags))
	for i, t := range g.tags {
		versions[i] = img + ":" + t
	}
	return group("Service", "Container image and pull settings of the "+g.f.label+" service.", obj{
		{"image", group("Docker image", "The image the main container of "+g.f.label+" runs.", obj{
			{"pullPolicy", str("Pull image from registry",
				"When the kubelet pulls the image: IfNotPresent reuses a cached copy, Always checks the registry at every start.",
				g.pick("IfNotPresent", "Always"), enum("IfNotPresent", "Always", "Never"))},
			{"version", str("Image version",
				"Tag of the "+g.f.label+" image. The newest tag comes first; older ones stay available for reproducibility.",
				versions[0], list(versions...), kv{"render", "list"}, hideWhen("service/image/custom/enabled", true))},
			{"custom", group("Custom image", "Run an image of your own instead of the maintained one. It must be compatible with "+g.f.label+".", obj{
				{"enabled", boolean("Use a custom image", "Use the image below instead of the catalog's image.", false)},
				{"version", str("Custom image name", "Full reference of the custom image, registry/repository:tag.",
					versions[0], hideUnlessEnabled())},
				{"pullSecret", str("Image pull secret", "Name of an existing secret holding registry credentials; empty for public images.",
					"", hideUnlessEnabled())},
			})},
		})},
	})
}

func (g *chartGen) resources() obj {
	cpuReq := g.cpu.at(1 + g.r.IntN(10))
	cpuLim := g.cpu.at((cpuReq-g.cpu.min)/g.cpu.step + 10 + g.r.IntN(200))
	memReq := g.mem.at(g.r.IntN(8))
	memLim := g.mem.at((memReq-g.mem.min)/g.mem.step + 4 + g.r.IntN(60))
	limits := obj{
		{"cpu", slider("CPU", "Maximum CPU allocation, in thousandths of a core (1000m is one core).", g.cpu, cpuLim,
			append(rangeEnd("up", "Maximum", "cpu"),
				platform(kv{"overwriteDefaultWith", "region.resources.cpuLimit"}, kv{"useRegionSliderConfig", "cpu"}))...)},
		{"memory", slider("Memory", "Maximum memory allocation. A container that uses more is killed and restarted.", g.mem, memLim,
			append(rangeEnd("up", "Maximum", "memory"),
				platform(kv{"overwriteDefaultWith", "region.resources.memoryLimit"}, kv{"useRegionSliderConfig", "memory"}))...)},
	}
	if g.f.gpu {
		limits = append(limits, kv{"nvidia.com/gpu", slider("GPU",
			"GPUs to allocate to this service. The same number is also requested.", g.gpu, g.gpu.at(g.r.IntN(2)),
			platform(kv{"overwriteDefaultWith", "region.resources.gpu"}, kv{"useRegionSliderConfig", "gpu"}))})
	}
	return group("Resources (CPU/RAM)",
		"Your service gets at least the requested resources and never more than its limits. A resource without a limit may consume all that is left on the host machine.",
		obj{
			{"requests", group("Requests", "Guaranteed resources, reserved for the service when it is scheduled.", obj{
				{"cpu", slider("CPU", "Guaranteed CPU allocation, in thousandths of a core.", g.cpu, cpuReq,
					append(rangeEnd("down", "guaranteed", "cpu"),
						platform(kv{"overwriteDefaultWith", "region.resources.cpuRequest"}, kv{"useRegionSliderConfig", "cpu"}))...)},
				{"memory", slider("Memory", "Guaranteed memory allocation.", g.mem, memReq,
					append(rangeEnd("down", "guaranteed", "memory"),
						platform(kv{"overwriteDefaultWith", "region.resources.memoryRequest"}, kv{"useRegionSliderConfig", "memory"}))...)},
			})},
			{"limits", group("Limits", "Maximum resources.", limits)},
		})
}

func (g *chartGen) persistence() obj {
	return group("Persistence", "Storage that outlives a restart of the service.", obj{
		{"enabled", boolean("Create a persistent volume", "Keep the working directory on a volume of its own.", g.f.catalog != "automation" || g.chance(50))},
		{"size", slider("Persistent volume size", "Size of the volume. It can grow later but never shrink.", g.disk, g.disk.at(4+g.r.IntN(40)),
			platform(kv{"overwriteDefaultWith", "region.resources.disk"}, kv{"useRegionSliderConfig", "disk"}), hideUnlessEnabled())},
		{"storageClass", str("Storage class", "Storage class of the volume; empty means the cluster default.", "", hideUnlessEnabled())},
		{"accessMode", str("Access mode", "How the volume may be mounted.", "ReadWriteOnce",
			enum("ReadWriteOnce", "ReadWriteMany", "ReadWriteOncePod"), hideUnlessEnabled())},
		{"mountPath", str("Mount path", "Where the volume is mounted in the container.", g.pick("/home/onyxia/work", "/home/user/work", "/data"), hideUnlessEnabled())},
	})
}

func (g *chartGen) init() obj {
	return group("Initialization scripts", "Scripts run when the service starts, before "+g.f.label+" itself.", obj{
		{"regionInit", str("Region script", "Initialization script provided by the region administrators.", "",
			hiddenPlatform(kv{"overwriteDefaultWith", "{{k8s.initScriptUrl}}"}))},
		{"personalInit", str("Custom script (URL)", "Address of a shell script of your own, fetched and run at start-up.", "",
			kv{"pattern", "^(https?://.*)?$"})},
		{"personalInitArgs", str("Arguments for the custom script", "Space-separated arguments passed to the custom script.", "")},
		{"standardInitPath", str("Standard init path", "Path of the image's own start-up hook.", "/opt/onyxia-init.sh",
			hiddenPlatform())},
	})
}

func (g *chartGen) extraEnvVars() obj {
	return option("array", "Environment variables", "Extra environment variables available within your service.", []any{},
		hiddenPlatform(),
		kv{"items", obj{
			{"type", "object"},
			{"title", "Variable"},
			{"description", "One environment variable."},
			{"properties", obj{
				{"name", str("Name", "Name of the variable.", "VAR_NAME", kv{"pattern", "^[a-zA-Z_][a-zA-Z0-9_]*$"})},
				{"value", str("Value", "Value of the variable.", "")},
			}},
		}})
}

func (g *chartGen) kubernetes() obj {
	return group("Kubernetes permissions", "Access to the Kubernetes API from within the service, restricted to your own namespace.", obj{
		{"enabled", boolean("Enable Kubernetes access", "Mount a service account token with the role below.", g.f.catalog == "ide")},
		{"role", str("Kubernetes role", "Access is restricted to your own namespace.", g.pick("view", "edit", "admin"),
			list("view", "edit", "admin"), kv{"render", "list"}, hideWhen("kubernetes/enabled", false))},
	})
}

func (g *chartGen) vault() obj {
	return group("Vault", "Access to the project's secrets in Vault from within the service.", obj{
		{"enabled", boolean("Enable Vault access", "Inject Vault address and token as environment variables.", true)},
		{"token", str("Vault token", "Token used to authenticate to Vault. It expires with your session.", "",
			kv{"render", "password"}, overwrite("{{vault.VAULT_TOKEN}}"), hideUnlessEnabled())},
		{"url", str("Vault server URL", "Address of the Vault server.", "", overwrite("{{vault.VAULT_ADDR}}"), hideUnlessEnabled())},
		{"mount", str("Secret engine", "Mount point of the key/value secret engine.", "onyxia-kv", overwrite("{{vault.VAULT_MOUNT}}"), hideUnlessEnabled())},
		{"directory", str("Top-level directory", "Directory of your secrets inside the secret engine.", "", overwrite("{{vault.VAULT_TOP_DIR}}"), hideUnlessEnabled())},
		{"secret", str("Secret to load", "Path of a secret converted into environment variables at start-up.", "", hideUnlessEnabled())},
	})
}

func (g *chartGen) s3() obj {
	return group("S3 object storage", "Credentials for the project's S3-compatible object storage.", obj{
		{"enabled", boolean("Enable S3 access", "Inject S3 credentials as environment variables (AWS_*).", true)},
		{"accessKeyId", str("Access key ID", "S3 access key.", "", overwrite("{{s3.AWS_ACCESS_KEY_ID}}"), hideUnlessEnabled())},
		{"endpoint", str("S3 endpoint", "Host name of the S3 endpoint.", "", overwrite("{{s3.AWS_S3_ENDPOINT}}"), hideUnlessEnabled())},
		{"defaultRegion", str("Default region", "Region of the S3 service.", "us-east-1", overwrite("{{s3.AWS_DEFAULT_REGION}}"), hideUnlessEnabled())},
		{"secretAccessKey", str("Secret access key", "S3 secret key.", "", kv{"render", "password"},
			overwrite("{{s3.AWS_SECRET_ACCESS_KEY}}"), hideUnlessEnabled())},
		{"sessionToken", str("Session token", "Temporary S3 session token.", "", kv{"render", "password"},
			overwrite("{{s3.AWS_SESSION_TOKEN}}"), hideUnlessEnabled())},
		{"pathStyleAccess", boolean("Path-style access", "Address buckets as endpoint/bucket instead of bucket.endpoint.", g.chance(30),
			overwrite("s3.pathStyleAccess"), hideUnlessEnabled())},
	})
}

func (g *chartGen) git() obj {
	hidden := hideWhen("git/enabled", false)
	props := obj{
		{"enabled", boolean("Enable git", "Add git configuration to the environment.", true)},
		{"name", str("Name", "User name used for commits.", "", overwrite("git.name"), hidden)},
		{"email", str("Email", "E-mail address used for commits.", "", overwrite("git.email"), hidden)},
		{"cache", str("Credentials cache duration", "Number of seconds credentials are kept in memory.", "",
			overwrite("git.credentials_cache_duration"), hidden)},
		{"token", str("Token", "Personal access token of your forge account.", "", kv{"render", "password"},
			overwrite("git.token"), hidden)},
		{"repository", str("Repository", "Address of a repository cloned at start-up.", "", hidden)},
		{"branch", str("Branch", "Branch checked out automatically; empty for the default branch.", "",
			hideWhen("git/repository", ""))},
	}
	if g.f.catalog == "ide" {
		props = append(props, kv{"asWorkspaceRoot", boolean("Open as workspace root",
			"Open the cloned repository as the root of the "+g.f.label+" workspace.", g.chance(50), hidden)})
	}
	return group("Git", "Git user configuration.", props)
}

func (g *chartGen) networking() obj {
	return group("Networking", "Ports of the service.", obj{
		{"service", group("Service port", "Port of the main web interface.", obj{
			{"port", integer("Port", "Container port "+g.f.label+" listens on.", g.f.port, 1, 65535, hiddenPlatform())},
		})},
		{"user", group("Custom port", "Expose one more port of your own, for an API or a dashboard you start yourself.", obj{
			{"enabled", boolean("Expose a custom port", "Create a service and an ingress for the port below.", false)},
			{"port", integer("Port number", "Port to expose.", 5000+g.r.IntN(100), 1024, 65535, hideWhen("networking/user/enabled", false))},
		})},
	})
}

var discoveryTargets = []struct{ key, label string }{
	{"hive", "Hive Metastore"}, {"mlflow", "MLflow"}, {"metaflow", "Metaflow"}, {"chromadb", "ChromaDB"},
	{"milvus", "Milvus"}, {"postgresql", "PostgreSQL"}, {"mongodb", "MongoDB"}, {"redis", "Redis"},
	{"clickhouse", "ClickHouse"}, {"elasticsearch", "Elasticsearch"}, {"trino", "Trino"}, {"kafka", "Kafka"},
}

func (g *chartGen) discovery() obj {
	props := obj{}
	for _, t := range discoveryTargets {
		if g.chance(70) {
			props = append(props, kv{t.key, boolean("Discover "+t.label+" services",
				"Read the connection details of the "+t.label+" services of the same project and inject them.", g.chance(80))})
		}
	}
	return group("Service discovery", "Third-party services of the same namespace that the service connects to automatically.", props)
}

func (g *chartGen) security() obj {
	return group("Security", "Access protection of the service.", obj{
		{"password", str("Password", "Password of the web interface. A one-time password is proposed.", "changeme",
			kv{"render", "password"}, overwrite("{{service.oneTimePassword}}"))},
		{"networkPolicy", group("Network policy", "Restrict inbound traffic to the service.", obj{
			{"enabled", boolean("Only allow access from the same namespace", "Create a network policy around the service.", false,
				overwrite("region.defaultNetworkPolicy"))},
			{"from", option("array", "Allowed sources", "Sources allowed to reach the service, in NetworkPolicy syntax.", []any{},
				kv{"items", obj{{"type", "object"}, {"title", "Source"}, {"description", "A network policy peer."}, {"additionalProperties", true}}},
				hiddenPlatform(kv{"overwriteDefaultWith", "region.from"}), hideUnlessEnabled())},
		})},
		{"allowlist", group("IP protection", "Only accept connections from some addresses.", obj{
			{"enabled", boolean("Enable IP protection", "Reject connections from other addresses.", g.chance(40),
				overwrite("region.defaultIpProtection"))},
			{"ip", str("Allowed address", "Address or CIDR range allowed to connect; your current address by default.", "0.0.0.0/0",
				overwrite("user.ip"), hideUnlessEnabled())},
		})},
	})
}

func (g *chartGen) ingress() obj {
	host := "{{project.id}}-{{k8s.randomSubdomain}}.{{k8s.domain}}"
	if g.chance(40) {
		host = "{{project.id}}-{{k8s.randomSubdomain}}-0.{{k8s.domain}}"
	}
	return group("Ingress", "Exposure of the web interface through the cluster's ingress controller.", obj{
		{"enabled", boolean("Enable ingress", "Create an Ingress object.", true, hiddenPlatform(kv{"overwriteDefaultWith", "k8s.ingress"}))},
		{"hostname", str("Hostname", "Host name of the web interface.", "chart.example.org", hiddenPlatform(kv{"overwriteDefaultWith", host}))},
		{"userHostname", str("Custom port hostname", "Host name of the custom port.", "user.example.org",
			hiddenPlatform(kv{"overwriteDefaultWith", "{{project.id}}-{{k8s.randomSubdomain}}-user.{{k8s.domain}}"}))},
		{"ingressClassName", str("Ingress class", "Class of the ingress controller.", "", hiddenPlatform(kv{"overwriteDefaultWith", "{{k8s.ingressClassName}}"}))},
		{"useCertManager", boolean("Use cert-manager", "Request a certificate from cert-manager.", false,
			hiddenPlatform(kv{"overwriteDefaultWith", "k8s.useCertManager"}))},
		{"certManagerClusterIssuer", str("Cluster issuer", "cert-manager cluster issuer.", "",
			hiddenPlatform(kv{"overwriteDefaultWith", "k8s.certManagerClusterIssuer"}))},
		{"useTlsSecret", boolean("Use a TLS secret", "Serve the certificate of an existing secret.", false, hiddenPlatform())},
		{"tlsSecretName", str("TLS secret name", "Secret holding the certificate and key.", "", hiddenPlatform())},
	})
}

func (g *chartGen) route() obj {
	return group("OpenShift route", "Exposure through an OpenShift route instead of an ingress.", obj{
		{"enabled", boolean("Enable route", "Create a Route object.", false, hiddenPlatform(kv{"overwriteDefaultWith", "k8s.route"}))},
		{"hostname", str("Hostname", "Host name of the route.", "chart.example.org",
			hiddenPlatform(kv{"overwriteDefaultWith", "{{project.id}}-{{k8s.randomSubdomain}}.{{k8s.domain}}"}))},
	})
}

func (g *chartGen) istio() obj {
	return group("Istio", "Exposure through an Istio gateway.", obj{
		{"enabled", boolean("Enable Istio", "Create a VirtualService.", false, hiddenPlatform())},
		{"gateways", option("array", "Gateways", "Istio gateways the VirtualService binds to.", []any{},
			kv{"items", obj{{"type", "string"}, {"title", "Gateway"}, {"description", "namespace/name of a gateway."}}},
			hiddenPlatform(), hideUnlessEnabled())},
		{"hostname", str("Hostname", "Host name of the VirtualService.", "chart.example.org",
			hiddenPlatform(kv{"overwriteDefaultWith", "{{project.id}}-{{k8s.randomSubdomain}}.{{k8s.domain}}"}))},
	})
}

func (g *chartGen) startupProbe() obj {
	return group("Startup probe", "How long Kubernetes waits for the service to start.", obj{
		{"failureThreshold", integer("Failure threshold", "Failed probes before the container is restarted.", 30+10*g.r.IntN(6), 1, 1000)},
		{"initialDelaySeconds", integer("Initial delay", "Seconds before the first probe.", 5*(1+g.r.IntN(4)), 0, 3600)},
		{"periodSeconds", integer("Period", "Seconds between probes.", 10, 1, 3600)},
		{"successThreshold", integer("Success threshold", "Successful probes to consider the service started.", 1, 1, 1)},
		{"timeoutSeconds", integer("Timeout", "Seconds after which a probe fails.", 2, 1, 600)},
	}, hiddenPlatform(kv{"overwriteDefaultWith", "region.startupProbe"}))
}

func (g *chartGen) nodeSelector() obj {
	return option("object", "Node selector", "Labels a node must have to run the service.", map[string]any{},
		kv{"additionalProperties", obj{{"type", "string"}}},
		hiddenPlatform(kv{"overwriteDefaultWith", "region.nodeSelector"}))
}

func (g *chartGen) tolerations() obj {
	return option("array", "Tolerations", "Tolerations of the pod, for nodes reserved to some workloads.", []any{},
		kv{"items", obj{{"type", "object"}, {"title", "Toleration"}, {"description", "A Kubernetes toleration."}, {"additionalProperties", true}}},
		hiddenPlatform(kv{"overwriteDefaultWith", "region.tolerations"}))
}

func (g *chartGen) userPreferences() obj {
	return group("User preferences", "Preferences copied from your profile.", obj{
		{"darkMode", boolean("Dark mode", "Start the interface in dark mode.", false, hiddenPlatform(kv{"overwriteDefaultWith", "user.darkMode"}))},
		{"language", str("Language", "Language of the interface.", "en", enum("en", "fr", "de", "it", "es", "nl", "fi", "zh-CN", "no"),
			hiddenPlatform(kv{"overwriteDefaultWith", "user.lang"}))},
	})
}

func (g *chartGen) global() obj {
	return group("Global", "Settings shared with sub-charts.", obj{
		{"suspend", boolean("Suspend", "Scale the service down to zero replicas, keeping its data.", false)},
	}, hiddenPlatform())
}

func (g *chartGen) proxy() obj {
	return group("Proxy", "HTTP proxy of the cluster, for services without direct internet access.", obj{
		{"enabled", boolean("Use a proxy", "Set the *_PROXY environment variables.", false)},
		{"httpProxy", str("HTTP proxy", "Proxy for plain HTTP requests.", "", hideUnlessEnabled())},
		{"httpsProxy", str("HTTPS proxy", "Proxy for HTTPS requests.", "", hideUnlessEnabled())},
		{"noProxy", str("No proxy", "Comma-separated hosts reached directly.", "localhost,127.0.0.1,.svc,.cluster.local", hideUnlessEnabled())},
	}, hiddenPlatform())
}

func (g *chartGen) certificates() obj {
	return group("Certificates", "Certificate authorities injected into the service's trust store.", obj{
		{"cacerts", str("CA certificates", "Concatenated PEM certificates, or the URL of a bundle.", "", hiddenPlatform())},
		{"pathToCaBundle", str("CA bundle path", "Directory where the bundle is written.", "/usr/local/share/ca-certificates/", hiddenPlatform())},
	})
}

func (g *chartGen) message() obj {
	return group("Message", "Message shown in the notes of the service.", obj{
		{"en", str("Message (English)", "Message to add in the notes.", "")},
		{"fr", str("Message (French)", "Message à ajouter dans les notes.", "")},
	}, hiddenPlatform())
}

// flavorGroups are the options specific to what the chart launches.
func (g *chartGen) flavorGroups() obj {
	var out obj
	switch g.f.catalog {
	case "ide":
		out = append(out, kv{g.f.tool, g.ideSettings()}, kv{"repository", g.packageRepositories()})
		if g.f.spark {
			out = append(out, kv{"spark", g.spark()})
		}
	case "databases":
		out = append(out, kv{"auth", g.auth()}, kv{"replication", g.replicas("Read replicas", "replicas")}, kv{"metrics", g.metrics()})
	default:
		out = append(out, kv{"auth", g.auth()}, kv{"workers", g.replicas("Workers", "workers")}, kv{"metrics", g.metrics()})
	}
	return out
}

func (g *chartGen) ideSettings() obj {
	shm := bounds{min: 64, max: 16384, step: 64, unit: "Mi"}
	return group(g.f.label+" settings", "Settings of the "+g.f.label+" interface.", obj{
		{"defaultDirectory", str("Working directory", "Directory opened at start-up.", "/home/onyxia/work")},
		{"theme", str("Theme", "Colour theme of the editor.", g.pick("auto", "light", "dark"), list("auto", "light", "dark"), kv{"render", "list"})},
		{"extensions", option("array", "Extensions", "Extensions installed at start-up, by identifier.", strs(),
			kv{"items", obj{{"type", "string"}, {"title", "Extension"}, {"description", "Identifier of an extension."}}})},
		{"sharedMemory", slider("Shared memory", "Size of /dev/shm, used by data loaders and some parallel libraries.", shm, shm.at(g.r.IntN(32)))},
		{"idleTimeout", integer("Idle timeout", "Minutes without activity before kernels are stopped; 0 disables it.", 60*g.r.IntN(5), 0, 10080)},
	})
}

func (g *chartGen) packageRepositories() obj {
	return group("Package repositories", "Mirrors used to install packages, for clusters without direct internet access.", obj{
		{"pipRepository", str("PyPI mirror", "Index URL for pip.", "")},
		{"condaRepository", str("Conda mirror", "Channel URL for conda and mamba.", "")},
		{"rRepository", str("CRAN mirror", "Repository URL for install.packages.", "")},
	})
}

func (g *chartGen) spark() obj {
	exec := bounds{min: 0, max: 50 + 10*g.r.IntN(6), step: 1}
	minExec := g.r.IntN(3)
	mem := bounds{min: 1, max: 64, step: 1, unit: "g"}
	return group("Spark", "Spark configuration of the session started in the service.", obj{
		{"ui", boolean("Enable monitoring interface", "Expose the Spark UI through the ingress.", true)},
		{"default", boolean("Create a Spark configuration", "Write spark-defaults.conf from the options below.", true)},
		{"minExecutors", option("number", "Minimum executors", "Executors kept alive by dynamic allocation.", minExec,
			append(countFields(exec), append(rangeEnd("down", "Minimum", "executors"), hideWhen("spark/default", false))...)...)},
		{"maxExecutors", option("number", "Maximum executors", "Upper bound of dynamic allocation.", minExec+5+g.r.IntN(20),
			append(countFields(exec), append(rangeEnd("up", "Maximum", "executors"), hideWhen("spark/default", false))...)...)},
		{"executorMemory", slider("Executor memory", "Memory of each executor.", mem, mem.at(1+g.r.IntN(7)), hideWhen("spark/default", false))},
		{"disabledCertChecking", boolean("Disable certificate checking", "Accept self-signed certificates of the S3 endpoint (not for production).", false)},
		{"userConfig", option("object", "Extra configuration", "Additional spark-defaults.conf entries.", map[string]any{
			"spark.dynamicAllocation.enabled":                        "true",
			"spark.dynamicAllocation.shuffleTracking.enabled":        "true",
			"spark.hadoop.fs.s3a.bucket.all.committer.magic.enabled": "true",
		}, kv{"additionalProperties", obj{{"type", "string"}}}, hideWhen("spark/default", false))},
	})
}

func (g *chartGen) auth() obj {
	return group("Authentication", "Credentials of the "+g.f.label+" administrator account.", obj{
		{"username", str("User name", "Administrator account, your identifier by default.", "admin", overwrite("{{user.idep}}"))},
		{"password", str("Password", "Administrator password.", "changeme", kv{"render", "password"}, overwrite("{{service.oneTimePassword}}"))},
		{"existingSecret", str("Existing secret", "Take the credentials from this secret instead.", "")},
	})
}

func (g *chartGen) replicas(title, id string) obj {
	b := bounds{min: 0, max: 4 + 2*g.r.IntN(5), step: 1}
	lo := g.r.IntN(2)
	return group(title, "Number of "+id+" running next to the main "+g.f.label+" process; autoscaling moves between the bounds.", obj{
		{"enabled", boolean("Enable "+id, "Run additional "+id+".", g.chance(30))},
		{"minReplicas", option("number", "Minimum", "Lowest number of "+id+".", lo,
			append(countFields(b), append(rangeEnd("down", "Minimum", id), hideUnlessEnabled())...)...)},
		{"maxReplicas", option("number", "Maximum", "Highest number of "+id+".", lo+1+g.r.IntN(3),
			append(countFields(b), append(rangeEnd("up", "Maximum", id), hideUnlessEnabled())...)...)},
	})
}

func (g *chartGen) metrics() obj {
	return group("Metrics", "Prometheus metrics of the service.", obj{
		{"enabled", boolean("Export metrics", "Start a metrics exporter next to the service.", g.chance(50))},
		{"port", integer("Metrics port", "Port of the exporter.", 9100+g.r.IntN(100), 1024, 65535, hideUnlessEnabled())},
		{"serviceMonitor", boolean("Create a ServiceMonitor", "For clusters running the Prometheus operator.", false, hideUnlessEnabled())},
	})
}

// connectors are the optional "connection to another service" groups used to
// bring every schema to its target size.
var connectors = []struct {
	key, label string
	port       int
}{
	{"postgresqlConnection", "PostgreSQL", 5432}, {"mysqlConnection", "MySQL", 3306},
	{"mongodbConnection", "MongoDB", 27017}, {"redisConnection", "Redis", 6379},
	{"clickhouseConnection", "ClickHouse", 8123}, {"trinoConnection", "Trino", 8443},
	{"elasticsearchConnection", "Elasticsearch", 9200}, {"kafkaConnection", "Kafka", 9092},
	{"neo4jConnection", "Neo4j", 7687}, {"cassandraConnection", "Cassandra", 9042},
	{"influxdbConnection", "InfluxDB", 8086}, {"mlflowConnection", "MLflow tracking", 5000},
	{"chromadbConnection", "ChromaDB", 8000}, {"milvusConnection", "Milvus", 19530},
	{"qdrantConnection", "Qdrant", 6333}, {"supersetConnection", "Superset", 8088},
	{"hiveConnection", "Hive Metastore", 9083}, {"nessieConnection", "Nessie catalog", 19120},
	{"lakefsConnection", "lakeFS", 8000}, {"rabbitmqConnection", "RabbitMQ", 5672},
}

func (g *chartGen) connector(c struct {
	key, label string
	port       int
}) obj {
	pool := bounds{min: 1, max: 100, step: 1}
	return group(c.label+" connection", "Connection to an external "+c.label+" service, exported to "+g.f.label+" as environment variables and a configuration file.", obj{
		{"enabled", boolean("Connect to "+c.label, "Configure the connection at start-up.", g.chance(20))},
		{"host", str("Host", "Host name or address of the "+c.label+" service.", "", hideUnlessEnabled())},
		{"port", integer("Port", "Port of the "+c.label+" service.", c.port, 1, 65535, hideUnlessEnabled())},
		{"database", str("Database", "Database, bucket or namespace to use.", g.pick("default", "analytics", "warehouse", "features"), hideUnlessEnabled())},
		{"username", str("User name", "Account used to connect; your identifier by default.", "", overwrite("{{user.idep}}"), hideUnlessEnabled())},
		{"password", str("Password", "Password of the account.", "", kv{"render", "password"}, hideUnlessEnabled())},
		{"tls", boolean("Use TLS", "Encrypt the connection.", g.chance(50), hideUnlessEnabled())},
		{"poolSize", slider("Connection pool", "Connections kept open by the client libraries.", pool, pool.at(4+g.r.IntN(20)), hideUnlessEnabled())},
		{"options", str("Extra options", "Driver options, as key=value pairs separated by '&'.", "", hideUnlessEnabled())},
	})
}
