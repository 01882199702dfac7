// The admission webhooks of Cluster API Provider AWS (sigs.k8s.io/cluster-api-provider-aws/v2,
// package webhooks) for the local control plane: AWSMachineTemplate (its spec is immutable),
// AWSMachine, AWSCluster and AWSClusterTemplate, served on 127.0.0.1 with a CA of our own and
// registered from the module's config/webhook/manifests.yaml. No AWS controllers: a stand-in puts
// and takes CAPA's AWSMachine finalizer as its controller does (serving.ProviderFinalizer).
package main

import (
	"flag"
	"fmt"

	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/manager"

	infrav1beta1 "sigs.k8s.io/cluster-api-provider-aws/v2/api/v1beta1"
	infrav1 "sigs.k8s.io/cluster-api-provider-aws/v2/api/v1beta2"
	"sigs.k8s.io/cluster-api-provider-aws/v2/feature"
	"sigs.k8s.io/cluster-api-provider-aws/v2/webhooks"

	"mapi-capi-sync/test/environment/neighbours/serving"
)

func main() {
	gates := flag.String("feature-gates", "", "CAPA feature gates, e.g. BootstrapFormatIgnition=true")
	serving.WebhookOnly{
		Name:        "cluster-api-provider-aws",
		AddToScheme: []func(*runtime.Scheme) error{infrav1.AddToScheme, infrav1beta1.AddToScheme},
		Webhooks: map[string]func(manager.Manager) error{
			"AWSMachineTemplate": (&webhooks.AWSMachineTemplate{}).SetupWebhookWithManager,
			"AWSMachine":         (&webhooks.AWSMachine{}).SetupWebhookWithManager,
			"AWSCluster":         (&webhooks.AWSCluster{}).SetupWebhookWithManager,
			"AWSClusterTemplate": (&webhooks.AWSClusterTemplate{}).SetupWebhookWithManager,
		},
		StandIns: []func(manager.Manager) error{
			serving.ProviderFinalizer{Kind: infrav1.GroupVersion.WithKind("AWSMachine"), Finalizer: infrav1.MachineFinalizer, InfrastructureMachine: true}.SetupWithManager,
		},
		BeforeStart: func() error {
			if *gates == "" {
				return nil
			}
			if err := feature.MutableGates.Set(*gates); err != nil {
				return fmt.Errorf("--feature-gates: %w", err)
			}
			return nil
		},
	}.Main()
}
