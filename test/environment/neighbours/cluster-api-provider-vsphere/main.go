// The admission webhooks of Cluster API Provider vSphere (sigs.k8s.io/cluster-api-provider-vsphere,
// package webhooks) for the local control plane: VSphereMachineTemplate (its spec.template.spec is
// immutable), VSphereMachine (its spec too, but for providerID, power-off settings and network
// devices), VSphereFailureDomain and VSphereDeploymentZone, served on 127.0.0.1 with a CA of our
// own and registered from the module's config/govmomi/webhook/manifests.yaml (CAPV has no
// config/webhook/). No vSphere controllers: a stand-in puts and takes CAPV's VSphereMachine
// finalizer as its controller does, first of all (serving.ProviderFinalizer, FinalizerFirst).
package main

import (
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/manager"

	infrav1 "sigs.k8s.io/cluster-api-provider-vsphere/apis/v1beta1"
	"sigs.k8s.io/cluster-api-provider-vsphere/webhooks"

	"mapi-capi-sync/test/environment/neighbours/serving"
)

func main() {
	serving.WebhookOnly{
		Name:        "cluster-api-provider-vsphere",
		AddToScheme: []func(*runtime.Scheme) error{infrav1.AddToScheme},
		Webhooks: map[string]func(manager.Manager) error{
			"VSphereMachineTemplate": (&webhooks.VSphereMachineTemplate{}).SetupWebhookWithManager,
			"VSphereMachine":         (&webhooks.VSphereMachine{}).SetupWebhookWithManager,
			"VSphereFailureDomain":   (&webhooks.VSphereFailureDomain{}).SetupWebhookWithManager,
			"VSphereDeploymentZone":  (&webhooks.VSphereDeploymentZone{}).SetupWebhookWithManager,
		},
		StandIns: []func(manager.Manager) error{
			serving.ProviderFinalizer{Kind: infrav1.GroupVersion.WithKind("VSphereMachine"), Finalizer: infrav1.MachineFinalizer, InfrastructureMachine: true, FinalizerFirst: true}.SetupWithManager,
		},
	}.Main()
}
