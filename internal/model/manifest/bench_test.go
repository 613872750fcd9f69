package manifest

import (
	"bytes"
	"testing"
)

// statefulSet100 is a typical rendered StatefulSet of about a hundred
// lines: probes, resources, volumes, a claim template, labels and
// annotations as charts write them.
const statefulSet100 = `# Source: postgresql/templates/primary/statefulset.yaml
apiVersion: apps/v1
kind: StatefulSet
metadata:
  name: release-postgresql
  namespace: user-jane
  labels:
    app.kubernetes.io/name: postgresql
    app.kubernetes.io/instance: release
    app.kubernetes.io/version: "16.4.0"
    app.kubernetes.io/component: primary
    app.kubernetes.io/managed-by: Helm
    helm.sh/chart: postgresql-15.5.20
  annotations:
    catalogist.dev/owner: jane
spec:
  replicas: 1
  serviceName: release-postgresql-hl
  podManagementPolicy: OrderedReady
  updateStrategy:
    type: RollingUpdate
  selector:
    matchLabels:
      app.kubernetes.io/name: postgresql
      app.kubernetes.io/instance: release
      app.kubernetes.io/component: primary
  template:
    metadata:
      name: release-postgresql
      labels:
        app.kubernetes.io/name: postgresql
        app.kubernetes.io/instance: release
        app.kubernetes.io/component: primary
        app.kubernetes.io/managed-by: Helm
      annotations:
        checksum/config: 4c5b0a0a1c6d0b8d2b8f6e1f8b7b3a9d7a1e5f2c9b8d7e6f5a4b3c2d1e0f9a8b
    spec:
      serviceAccountName: release-postgresql
      automountServiceAccountToken: false
      securityContext:
        fsGroup: 1001
        fsGroupChangePolicy: Always
      affinity:
        podAntiAffinity:
          preferredDuringSchedulingIgnoredDuringExecution:
          - weight: 1
            podAffinityTerm:
              labelSelector:
                matchLabels:
                  app.kubernetes.io/name: postgresql
              topologyKey: kubernetes.io/hostname
      containers:
      - name: postgresql
        image: docker.io/bitnami/postgresql:16.4.0-debian-12-r0
        imagePullPolicy: IfNotPresent
        securityContext:
          runAsUser: 1001
          runAsNonRoot: true
          allowPrivilegeEscalation: false
          capabilities:
            drop: [ALL]
        env:
        - name: POSTGRESQL_PORT_NUMBER
          value: "5432"
        - name: POSTGRES_PASSWORD
          valueFrom:
            secretKeyRef:
              name: release-postgresql
              key: postgres-password
        ports:
        - name: tcp-postgresql
          containerPort: 5432
        livenessProbe:
          exec:
            command: [/bin/sh, -c, exec pg_isready -U postgres -h 127.0.0.1 -p 5432]
          initialDelaySeconds: 30
          periodSeconds: 10
        readinessProbe:
          tcpSocket:
            port: tcp-postgresql
          initialDelaySeconds: 5
        resources:
          requests: {cpu: 100m, memory: 128Mi}
          limits: {cpu: "2", memory: 2Gi, ephemeral-storage: 1Gi}
        volumeMounts:
        - name: data
          mountPath: /bitnami/postgresql
        - name: dshm
          mountPath: /dev/shm
      volumes:
      - name: dshm
        emptyDir:
          medium: Memory
  volumeClaimTemplates:
  - apiVersion: v1
    kind: PersistentVolumeClaim
    metadata:
      name: data
    spec:
      accessModes: [ReadWriteOnce]
      resources:
        requests:
          storage: 8Gi
`

func BenchmarkCheck(b *testing.B) {
	doc := []byte(statefulSet100)
	c := &Checker{}
	if _, ps := c.Check(doc); len(ps) != 0 {
		b.Fatalf("the benchmark's StatefulSet has problems:%s", describe(ps))
	}
	b.SetBytes(int64(len(doc)))
	b.Logf("%d lines", bytes.Count(doc, []byte("\n")))
	b.ReportAllocs()
	for b.Loop() {
		c.Check(doc)
	}
}

// BenchmarkCheckBad is the same StatefulSet with a value of the wrong type
// and an unknown field, which take the slower paths (the YAML tree for
// lines, the walk for every wrong value).
func BenchmarkCheckBad(b *testing.B) {
	doc := bytes.Replace([]byte(statefulSet100), []byte("  replicas: 1\n"), []byte("  replicas: \"1\"\n  replica: 1\n"), 1)
	c := &Checker{}
	if _, ps := c.Check(doc); len(ps) != 2 {
		b.Fatalf("want 2 problems:%s", describe(ps))
	}
	b.ReportAllocs()
	for b.Loop() {
		c.Check(doc)
	}
}
