// Command clusterrole-aggregator runs Kubernetes' ClusterRole aggregation
// controller on its own, against the API server of a kubeconfig.
//
// The API server creates the built-in ClusterRoles admin, edit and view with
// aggregation rules but no rules of their own: filling them in from the
// ClusterRoles they select (system:aggregate-to-edit, ...) is the job of the
// "clusterrole-aggregation" controller of kube-controller-manager.
// scripts/kube-up.sh runs no controller manager, so it runs this instead,
// which is that very controller (the k8s.io/kubernetes release the API server
// is built from) and nothing else.
//
//	clusterrole-aggregator --kubeconfig FILE [--context NAME]
//
// It runs until SIGTERM or SIGINT.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	"k8s.io/component-base/version"
	"k8s.io/klog/v2"
	"k8s.io/kubernetes/pkg/controller/clusterroleaggregation"
)

func main() {
	kubeconfig := flag.String("kubeconfig", "", "kubeconfig of the API server (required)")
	ctxName := flag.String("context", "", "context of the kubeconfig (default: its current context)")
	showVersion := flag.Bool("version", false, "print the Kubernetes version and exit")
	flag.Parse()
	if *showVersion {
		fmt.Printf("Kubernetes %s\n", version.Get().GitVersion)
		return
	}
	if *kubeconfig == "" || flag.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "usage: clusterrole-aggregator --kubeconfig FILE [--context NAME]")
		os.Exit(2)
	}
	if err := run(*kubeconfig, *ctxName); err != nil {
		klog.ErrorS(err, "clusterrole-aggregator failed")
		os.Exit(1)
	}
}

func run(kubeconfig, kubeContext string) error {
	cfg, err := clientcmd.NewNonInteractiveDeferredLoadingClientConfig(
		&clientcmd.ClientConfigLoadingRules{ExplicitPath: kubeconfig},
		&clientcmd.ConfigOverrides{CurrentContext: kubeContext},
	).ClientConfig()
	if err != nil {
		return err
	}
	client, err := kubernetes.NewForConfig(rest.AddUserAgent(cfg, "clusterrole-aggregation-controller"))
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()

	factory := informers.NewSharedInformerFactory(client, 0)
	c := clusterroleaggregation.NewClusterRoleAggregation(factory.Rbac().V1().ClusterRoles(), client.RbacV1())
	factory.Start(ctx.Done())
	defer factory.Shutdown()
	// As kube-controller-manager runs it.
	c.Run(ctx, 5)
	return nil
}
