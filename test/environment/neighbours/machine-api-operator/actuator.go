package main

import (
	"context"
	"fmt"
	"sync"

	machinev1 "github.com/openshift/api/machine/v1beta1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/klog/v2"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// standInActuator stands in for a cloud provider's Machine actuator (machine-api-provider-aws,
// -openstack, -gcp, -azure, -powervs, and machine-api-operator's own for vSphere): no cloud can be
// reached from the local control plane, so "creating an instance" only writes what a provider
// writes back once its instance exists, and machine-api-operator's Machine controller then takes
// the Machine to phase Provisioned (never Running: no Node joins).
//
//   - Create sets spec.providerID to a well-formed ID for the Machine's platform, derived only from
//     the providerSpec and the Machine (see providerIDFor), then status.addresses: an InternalIP
//     taken from a hash of the Machine's uid and an InternalDNS equal to its name. A providerSpec
//     of a kind it does not know gets `stand-in:///<uid>`: the Machine still provisions, as its
//     platform is not one this project converts, rather than going Failed.
//   - Exists is true when the Machine has a providerID and Delete was not called for its uid.
//     Deleted uids are kept in memory only: after a restart "has a providerID" is the truth, and
//     the controller calls Delete again for a Machine being deleted.
//   - Update does nothing: there is no instance to bring in line.
//   - Delete records the uid as deleted, so the controller removes its finalizer.
type standInActuator struct {
	client client.Client
	// reader reads the Infrastructure `cluster` without a cache: it may not exist, and only a
	// few platforms need it.
	reader client.Reader

	mu      sync.Mutex
	deleted map[types.UID]bool
}

func newStandInActuator(c client.Client, reader client.Reader) *standInActuator {
	return &standInActuator{client: c, reader: reader, deleted: map[types.UID]bool{}}
}

func (a *standInActuator) Create(ctx context.Context, machine *machinev1.Machine) error {
	providerID := providerIDFor(machine, readInfrastructure(ctx, a.reader))
	specPatch := client.MergeFrom(machine.DeepCopy())
	machine.Spec.ProviderID = &providerID
	if err := a.client.Patch(ctx, machine, specPatch); err != nil {
		return fmt.Errorf("setting spec.providerID %q: %w", providerID, err)
	}
	statusPatch := client.MergeFrom(machine.DeepCopy())
	machine.Status.Addresses = []corev1.NodeAddress{
		{Type: corev1.NodeInternalIP, Address: internalIPFor(machine.UID)},
		{Type: corev1.NodeInternalDNS, Address: machine.Name},
	}
	if err := a.client.Status().Patch(ctx, machine, statusPatch); err != nil {
		return fmt.Errorf("setting status.addresses: %w", err)
	}
	klog.Infof("%v: stand-in instance %s created", machine.Name, providerID)
	return nil
}

func (a *standInActuator) Exists(_ context.Context, machine *machinev1.Machine) (bool, error) {
	if machine.Spec.ProviderID == nil || *machine.Spec.ProviderID == "" {
		return false, nil
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	return !a.deleted[machine.UID], nil
}

func (a *standInActuator) Update(context.Context, *machinev1.Machine) error {
	return nil
}

func (a *standInActuator) Delete(_ context.Context, machine *machinev1.Machine) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.deleted[machine.UID] = true
	klog.Infof("%v: stand-in instance deleted", machine.Name)
	return nil
}
