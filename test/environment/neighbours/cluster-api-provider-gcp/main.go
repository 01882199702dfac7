// The admission webhooks of Cluster API Provider GCP (sigs.k8s.io/cluster-api-provider-gcp, package
// webhooks) for the local control plane: GCPMachineTemplate, GCPMachine, GCPCluster and
// GCPClusterTemplate, served on 127.0.0.1 with a CA of our own and registered from the module's
// config/webhook/manifests.yaml. No GCP controllers: a stand-in puts and takes CAPG's GCPMachine
// finalizer as its controller does (serving.ProviderFinalizer).
package main

import (
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/manager"

	infrav1 "sigs.k8s.io/cluster-api-provider-gcp/api/v1beta1"
	"sigs.k8s.io/cluster-api-provider-gcp/webhooks"

	"mapi-capi-sync/test/environment/neighbours/serving"
)

func main() {
	serving.WebhookOnly{
		Name:        "cluster-api-provider-gcp",
		AddToScheme: []func(*runtime.Scheme) error{infrav1.AddToScheme},
		Webhooks: map[string]func(manager.Manager) error{
			"GCPMachineTemplate": (&webhooks.GCPMachineTemplate{}).SetupWebhookWithManager,
			"GCPMachine":         (&webhooks.GCPMachine{}).SetupWebhookWithManager,
			"GCPCluster":         (&webhooks.GCPCluster{}).SetupWebhookWithManager,
			"GCPClusterTemplate": (&webhooks.GCPClusterTemplate{}).SetupWebhookWithManager,
		},
		StandIns: []func(manager.Manager) error{
			serving.ProviderFinalizer{Kind: infrav1.GroupVersion.WithKind("GCPMachine"), Finalizer: infrav1.MachineFinalizer, InfrastructureMachine: true}.SetupWithManager,
		},
	}.Main()
}
