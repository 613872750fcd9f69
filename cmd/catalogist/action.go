package main

import (
	"os"

	"github.com/catalogist/catalogist/internal/action"
	"github.com/spf13/cobra"
)

func newActionCmd() *cobra.Command {
	return &cobra.Command{
		Use:    "action",
		Short:  "Run lint, build or publish as the catalogist GitHub Action's inputs say",
		Hidden: true,
		Long: `Action is what the catalogist GitHub Action (action.yml) runs: it reads the
action's inputs from the INPUT_* variables of a GitHub Actions step and runs
lint, build or publish with them. Outside a step, run those commands.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			a := &action.GitHubAction{Getenv: os.Getenv, Stdout: cmd.OutOrStdout(), Stderr: cmd.ErrOrStderr()}
			return a.Run(cmd.Context())
		},
	}
}
