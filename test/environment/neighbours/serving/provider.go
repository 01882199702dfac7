package serving

import (
	"context"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// ProviderFinalizer stands in for an infrastructure provider's controller, which cannot run here
// (it reaches a cloud), in the one thing the migration depends on: when the provider's finalizer
// is on its object. The rules are the providers' own, read from CAPA v2.11
// controllers/awsmachine_controller.go (Reconcile, reconcileNormal, reconcileDelete), CAPG v1.12
// controllers/gcpmachine_controller.go and CAPO v0.14 controllers/openstackmachine_controller.go
// and openstackserver_controller.go:
//   - an infrastructure machine: nothing without its owner Machine and that Machine's Cluster;
//     an object made per machine (CAPO's OpenStackServer): its Cluster from its own label, if any;
//   - nothing while the Cluster or the object is paused;
//   - being deleted: the instance is deleted (here there is none), then the finalizer removed;
//   - otherwise the finalizer is added (before the instance is created or adopted), for an
//     infrastructure machine once the Cluster's infrastructure is provisioned and the Machine has
//     its bootstrap data secret.
//
// CAPV v1.15 (controllers/vspheremachine_controller.go, Reconcile and reconcileDelete) orders
// them otherwise: see FinalizerFirst.
type ProviderFinalizer struct {
	// Kind is the provider's object, e.g. infrastructure.cluster.x-k8s.io/v1beta2 AWSMachine.
	Kind schema.GroupVersionKind
	// Finalizer is the provider's, from its module (e.g. infrav1.MachineFinalizer).
	Finalizer string
	// InfrastructureMachine: the object is a Machine's infrastructure machine (owned by it).
	InfrastructureMachine bool
	// FinalizerFirst: the provider adds its finalizer before it looks at anything else
	// (finalizers.EnsureFinalizer right after the Get), whether the object is paused, owned or
	// not; being deleted, the object loses it at once without an owner Machine, else unless it
	// or its Cluster (when there is one) is paused, once its VM is gone (here there is none).
	// CAPV's VSphereMachine; only for an infrastructure machine.
	FinalizerFirst bool
}

const (
	pausedAnnotation = "cluster.x-k8s.io/paused"
	clusterNameLabel = "cluster.x-k8s.io/cluster-name"
)

var (
	machineKind = schema.GroupVersionKind{Group: "cluster.x-k8s.io", Version: "v1beta2", Kind: "Machine"}
	clusterKind = schema.GroupVersionKind{Group: "cluster.x-k8s.io", Version: "v1beta2", Kind: "Cluster"}
)

// SetupWithManager watches the provider's objects and Clusters (a Cluster's infrastructure becoming
// provisioned wakes its machines, as the providers' ClusterToXMachines maps do).
func (p ProviderFinalizer) SetupWithManager(mgr manager.Manager) error {
	clusters := &unstructured.Unstructured{}
	clusters.SetGroupVersionKind(clusterKind)
	return ctrl.NewControllerManagedBy(mgr).
		Named("stand-in-"+strings.ToLower(p.Kind.Kind)).
		For(p.object()).
		Watches(clusters, handler.EnqueueRequestsFromMapFunc(p.objectsOfCluster(mgr.GetClient()))).
		Complete(reconcile.Func(func(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
			return reconcile.Result{}, p.reconcile(ctx, mgr.GetClient(), req.NamespacedName)
		}))
}

func (p ProviderFinalizer) object() *unstructured.Unstructured {
	u := &unstructured.Unstructured{}
	u.SetGroupVersionKind(p.Kind)
	return u
}

func (p ProviderFinalizer) objectsOfCluster(c client.Client) handler.MapFunc {
	return func(ctx context.Context, cluster client.Object) []reconcile.Request {
		list := &unstructured.UnstructuredList{}
		list.SetGroupVersionKind(p.Kind.GroupVersion().WithKind(p.Kind.Kind + "List"))
		if err := c.List(ctx, list, client.InNamespace(cluster.GetNamespace())); err != nil {
			return nil
		}
		var requests []reconcile.Request
		for _, item := range list.Items {
			requests = append(requests, reconcile.Request{NamespacedName: types.NamespacedName{Namespace: item.GetNamespace(), Name: item.GetName()}})
		}
		return requests
	}
}

func (p ProviderFinalizer) reconcile(ctx context.Context, c client.Client, key types.NamespacedName) error {
	object := p.object()
	if err := c.Get(ctx, key, object); err != nil {
		return client.IgnoreNotFound(err)
	}
	if p.FinalizerFirst {
		return p.reconcileFinalizerFirst(ctx, c, object)
	}
	ready, err := p.ready(ctx, c, object)
	if !ready || err != nil {
		return err
	}
	if _, paused := object.GetAnnotations()[pausedAnnotation]; paused {
		return nil
	}
	if !object.GetDeletionTimestamp().IsZero() {
		if controllerutil.RemoveFinalizer(object, p.Finalizer) {
			return ignoreRaces(c.Update(ctx, object))
		}
		return nil
	}
	if controllerutil.AddFinalizer(object, p.Finalizer) {
		return ignoreRaces(c.Update(ctx, object))
	}
	return nil
}

func (p ProviderFinalizer) reconcileFinalizerFirst(ctx context.Context, c client.Client, object *unstructured.Unstructured) error {
	if object.GetDeletionTimestamp().IsZero() {
		if controllerutil.AddFinalizer(object, p.Finalizer) {
			return ignoreRaces(c.Update(ctx, object))
		}
		return nil
	}
	if !controllerutil.ContainsFinalizer(object, p.Finalizer) {
		return nil
	}
	if ref := machineOwner(object); ref != nil {
		machine := &unstructured.Unstructured{}
		machine.SetGroupVersionKind(machineKind)
		if err := c.Get(ctx, types.NamespacedName{Namespace: object.GetNamespace(), Name: ref.Name}, machine); err != nil {
			return client.IgnoreNotFound(err) // the provider fails and retries: the finalizer stays
		}
		if _, paused := object.GetAnnotations()[pausedAnnotation]; paused {
			return nil
		}
		if name := machine.GetLabels()[clusterNameLabel]; name != "" {
			cluster := &unstructured.Unstructured{}
			cluster.SetGroupVersionKind(clusterKind)
			err := c.Get(ctx, types.NamespacedName{Namespace: object.GetNamespace(), Name: name}, cluster)
			if err != nil && !apierrors.IsNotFound(err) {
				return err
			}
			if paused, _, _ := unstructured.NestedBool(cluster.Object, "spec", "paused"); err == nil && paused {
				return nil
			}
		}
	}
	controllerutil.RemoveFinalizer(object, p.Finalizer)
	return ignoreRaces(c.Update(ctx, object))
}

// ready says whether the provider goes on with the object: its Machine and Cluster found as it
// needs them, and the Cluster not paused.
func (p ProviderFinalizer) ready(ctx context.Context, c client.Client, object *unstructured.Unstructured) (bool, error) {
	labelled := object
	if p.InfrastructureMachine {
		ref := machineOwner(object)
		if ref == nil {
			return false, nil
		}
		labelled = &unstructured.Unstructured{}
		labelled.SetGroupVersionKind(machineKind)
		if err := c.Get(ctx, types.NamespacedName{Namespace: object.GetNamespace(), Name: ref.Name}, labelled); err != nil {
			return false, client.IgnoreNotFound(err)
		}
	}
	name, labelledWithCluster := labelled.GetLabels()[clusterNameLabel]
	cluster := &unstructured.Unstructured{}
	cluster.SetGroupVersionKind(clusterKind)
	err := c.Get(ctx, types.NamespacedName{Namespace: object.GetNamespace(), Name: name}, cluster)
	if !p.InfrastructureMachine && (!labelledWithCluster || apierrors.IsNotFound(err)) {
		return true, nil
	}
	if err != nil {
		return false, client.IgnoreNotFound(err)
	}
	if paused, _, _ := unstructured.NestedBool(cluster.Object, "spec", "paused"); paused {
		return false, nil
	}
	if !p.InfrastructureMachine || !object.GetDeletionTimestamp().IsZero() {
		return true, nil
	}
	provisioned, _, _ := unstructured.NestedBool(cluster.Object, "status", "initialization", "infrastructureProvisioned")
	secret, _, _ := unstructured.NestedString(labelled.Object, "spec", "bootstrap", "dataSecretName")
	return provisioned && secret != "", nil
}

// ignoreRaces: a conflict or a vanished object is followed by the event that caused it.
func ignoreRaces(err error) error {
	if apierrors.IsConflict(err) || apierrors.IsNotFound(err) {
		return nil
	}
	return err
}

func machineOwner(object *unstructured.Unstructured) *metav1.OwnerReference {
	for _, ref := range object.GetOwnerReferences() {
		if ref.Kind == "Machine" && strings.HasPrefix(ref.APIVersion, "cluster.x-k8s.io/") {
			return &ref
		}
	}
	return nil
}
