package builder

import (
	"bytes"
	"context"
	"fmt"

	"gopkg.in/yaml.v3"
)

// ArtifactHubFile is the file Artifact Hub reads beside a chart
// repository's index.yaml: the repository's ID there, which makes its
// publisher verified, and the owners who may claim it.
const ArtifactHubFile = "artifacthub-repo.yml"

// artifactHubRepo is ArtifactHubFile's format.
type artifactHubRepo struct {
	RepositoryID string             `yaml:"repositoryID,omitempty"`
	Owners       []artifactHubOwner `yaml:"owners,omitempty"`
}

type artifactHubOwner struct {
	Name  string `yaml:"name,omitempty"`
	Email string `yaml:"email"`
}

// noArtifactHub leaves the Artifact Hub step out of a build whose
// catalog.yaml has no artifacthub: section.
func noArtifactHub(b *build) bool {
	cfg := b.in.catalog.Config
	return cfg == nil || cfg.ArtifactHub == nil
}

// writeArtifactHub writes ArtifactHubFile from catalog.yaml's artifacthub:
// section into the staging directory, beside the index.
func writeArtifactHub(_ context.Context, b *build) error {
	ah := b.in.catalog.Config.ArtifactHub
	doc := artifactHubRepo{RepositoryID: ah.RepositoryID}
	for _, o := range ah.Owners {
		doc.Owners = append(doc.Owners, artifactHubOwner(o))
	}
	var buf bytes.Buffer
	buf.WriteString("# Written by catalogist build from the artifacthub section of catalog.yaml.\n")
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(doc); err != nil {
		return fmt.Errorf("%s: %w", ArtifactHubFile, err)
	}
	if err := enc.Close(); err != nil {
		return fmt.Errorf("%s: %w", ArtifactHubFile, err)
	}
	return b.writeFile(ArtifactHubFile, buf.Bytes())
}
