// Package serving is what the neighbour binaries of the local control plane share to serve
// upstream admission webhooks on loopback: a CA of their own with a serving certificate for
// 127.0.0.1, a webhook server that remembers which paths it serves, and the registration of the
// upstream module's webhook configurations (its config/webhook/manifests.yaml, or the
// configurations its Go functions build), restricted to those paths and pointed at
// https://127.0.0.1:PORT/<path>.
package serving

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"math/big"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	admissionv1 "k8s.io/api/admissionregistration/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	"sigs.k8s.io/controller-runtime/pkg/webhook"
)

// Host is the only address the webhook servers listen on and are called at.
const Host = "127.0.0.1"

// Certificates writes a fresh CA (ca.crt) and a serving certificate for 127.0.0.1 and localhost
// signed by it (tls.crt, tls.key) into dir, and returns the CA certificate in PEM.
func Certificates(dir string) ([]byte, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	now := time.Now()
	caKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	caTemplate := &x509.Certificate{
		SerialNumber:          serialNumber(),
		Subject:               pkix.Name{CommonName: "local control plane webhook CA"},
		NotBefore:             now.Add(-time.Hour),
		NotAfter:              now.AddDate(10, 0, 0),
		IsCA:                  true,
		BasicConstraintsValid: true,
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature,
	}
	caDER, err := x509.CreateCertificate(rand.Reader, caTemplate, caTemplate, &caKey.PublicKey, caKey)
	if err != nil {
		return nil, err
	}
	caCert, err := x509.ParseCertificate(caDER)
	if err != nil {
		return nil, err
	}
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	template := &x509.Certificate{
		SerialNumber: serialNumber(),
		Subject:      pkix.Name{CommonName: Host},
		DNSNames:     []string{"localhost"},
		IPAddresses:  []net.IP{net.ParseIP(Host)},
		NotBefore:    now.Add(-time.Hour),
		NotAfter:     now.AddDate(10, 0, 0),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, template, caCert, &key.PublicKey, caKey)
	if err != nil {
		return nil, err
	}
	keyDER, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		return nil, err
	}
	caPEM := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: caDER})
	files := map[string][]byte{
		"ca.crt":  caPEM,
		"tls.crt": pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}),
		"tls.key": pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: keyDER}),
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), content, 0o600); err != nil {
			return nil, err
		}
	}
	return caPEM, nil
}

func serialNumber() *big.Int {
	n, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 120))
	if err != nil {
		panic(err)
	}
	return n
}

// Recorder is a webhook server that remembers the paths registered on it.
type Recorder struct {
	webhook.Server
	mu    sync.Mutex
	paths map[string]bool
}

// NewServer is a webhook server on 127.0.0.1:port with the certificate written by Certificates.
func NewServer(port int, certDir string) *Recorder {
	return &Recorder{
		Server: webhook.NewServer(webhook.Options{Host: Host, Port: port, CertDir: certDir}),
		paths:  map[string]bool{},
	}
}

// Register serves hook at path and remembers the path.
func (r *Recorder) Register(path string, hook http.Handler) {
	r.mu.Lock()
	r.paths[path] = true
	r.mu.Unlock()
	r.Server.Register(path, hook)
}

// Paths are the paths registered so far, sorted.
func (r *Recorder) Paths() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	paths := make([]string, 0, len(r.paths))
	for p := range r.paths {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	return paths
}

func (r *Recorder) serves(path string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.paths[path]
}

// Registration installs the webhook configurations once the manager's webhook server answers,
// and reports through its Checker (for /readyz) whether that is done.
type Registration struct {
	// Manifests is the upstream module's config/webhook/manifests.yaml. Without it, Mutating and
	// Validating are the upstream configurations (for a module that builds them in Go).
	Manifests  string
	Mutating   []admissionv1.MutatingWebhookConfiguration
	Validating []admissionv1.ValidatingWebhookConfiguration
	// Prefix names the configurations: <Prefix>-<upstream name>.
	Prefix string
	// CABundle is the PEM of the CA that signed the serving certificate.
	CABundle []byte
	Server   *Recorder
	Port     int
	done     atomic.Bool
}

// AddTo adds the registration to the manager and a readyz check that passes once it is done.
func (g *Registration) AddTo(mgr manager.Manager) error {
	if err := mgr.AddReadyzCheck("webhook-configurations", g.checker); err != nil {
		return err
	}
	return mgr.Add(manager.RunnableFunc(func(ctx context.Context) error {
		log := ctrl.Log.WithName("webhook-configurations")
		started := g.Server.StartedChecker()
		request, _ := http.NewRequest(http.MethodGet, "/", nil)
		err := wait.PollUntilContextCancel(ctx, 200*time.Millisecond, true, func(ctx context.Context) (bool, error) {
			if started(request) != nil {
				return false, nil
			}
			names, err := g.register(ctx, mgr.GetConfig())
			if err != nil {
				log.Error(err, "registering the webhook configurations failed; retrying")
				return false, nil
			}
			log.Info("webhook configurations registered", "configurations", names, "paths", g.Server.Paths())
			return true, nil
		})
		if err != nil {
			return nil // the manager is stopping
		}
		g.done.Store(true)
		<-ctx.Done()
		return nil
	}))
}

func (g *Registration) checker(_ *http.Request) error {
	if !g.done.Load() {
		return errors.New("webhook configurations not registered yet")
	}
	return nil
}

func (g *Registration) register(ctx context.Context, config *rest.Config) ([]string, error) {
	mutating, validating, err := g.configurations()
	if err != nil {
		return nil, err
	}
	client, err := kubernetes.NewForConfig(config)
	if err != nil {
		return nil, err
	}
	var names []string
	for i := range mutating {
		api := client.AdmissionregistrationV1().MutatingWebhookConfigurations()
		desired := &mutating[i]
		current, err := api.Get(ctx, desired.Name, metav1.GetOptions{})
		switch {
		case apierrors.IsNotFound(err):
			_, err = api.Create(ctx, desired, metav1.CreateOptions{})
		case err == nil:
			desired.ResourceVersion = current.ResourceVersion
			_, err = api.Update(ctx, desired, metav1.UpdateOptions{})
		}
		if err != nil {
			return nil, fmt.Errorf("MutatingWebhookConfiguration %s: %w", desired.Name, err)
		}
		names = append(names, desired.Name)
	}
	for i := range validating {
		api := client.AdmissionregistrationV1().ValidatingWebhookConfigurations()
		desired := &validating[i]
		current, err := api.Get(ctx, desired.Name, metav1.GetOptions{})
		switch {
		case apierrors.IsNotFound(err):
			_, err = api.Create(ctx, desired, metav1.CreateOptions{})
		case err == nil:
			desired.ResourceVersion = current.ResourceVersion
			_, err = api.Update(ctx, desired, metav1.UpdateOptions{})
		}
		if err != nil {
			return nil, fmt.Errorf("ValidatingWebhookConfiguration %s: %w", desired.Name, err)
		}
		names = append(names, desired.Name)
	}
	return names, nil
}

// configurations are the upstream configurations (from the manifests, else as given) with only
// the webhooks whose path is served, each calling https://127.0.0.1:PORT/<path> with the CA bundle.
func (g *Registration) configurations() ([]admissionv1.MutatingWebhookConfiguration, []admissionv1.ValidatingWebhookConfiguration, error) {
	upstreamMutating, upstreamValidating, source := g.Mutating, g.Validating, "the given configurations"
	if g.Manifests != "" {
		var err error
		if upstreamMutating, upstreamValidating, err = readManifests(g.Manifests); err != nil {
			return nil, nil, err
		}
		source = g.Manifests
	}
	clientConfig := func(upstream admissionv1.WebhookClientConfig) (admissionv1.WebhookClientConfig, bool) {
		if upstream.Service == nil || upstream.Service.Path == nil || !g.Server.serves(*upstream.Service.Path) {
			return admissionv1.WebhookClientConfig{}, false
		}
		url := fmt.Sprintf("https://%s:%d%s", Host, g.Port, *upstream.Service.Path)
		return admissionv1.WebhookClientConfig{URL: &url, CABundle: g.CABundle}, true
	}
	var mutating []admissionv1.MutatingWebhookConfiguration
	for _, upstream := range upstreamMutating {
		kept := admissionv1.MutatingWebhookConfiguration{TypeMeta: upstream.TypeMeta}
		kept.Name = g.Prefix + "-" + upstream.Name
		for _, hook := range upstream.Webhooks {
			hook = *hook.DeepCopy()
			if cc, ok := clientConfig(hook.ClientConfig); ok {
				hook.ClientConfig = cc
				kept.Webhooks = append(kept.Webhooks, hook)
			}
		}
		if len(kept.Webhooks) > 0 {
			mutating = append(mutating, kept)
		}
	}
	var validating []admissionv1.ValidatingWebhookConfiguration
	for _, upstream := range upstreamValidating {
		kept := admissionv1.ValidatingWebhookConfiguration{TypeMeta: upstream.TypeMeta}
		kept.Name = g.Prefix + "-" + upstream.Name
		for _, hook := range upstream.Webhooks {
			hook = *hook.DeepCopy()
			if cc, ok := clientConfig(hook.ClientConfig); ok {
				hook.ClientConfig = cc
				kept.Webhooks = append(kept.Webhooks, hook)
			}
		}
		if len(kept.Webhooks) > 0 {
			validating = append(validating, kept)
		}
	}
	if len(mutating)+len(validating) == 0 {
		return nil, nil, fmt.Errorf("none of the served paths %v is in %s", g.Server.Paths(), source)
	}
	return mutating, validating, nil
}

// readManifests reads the webhook configurations of a config/webhook/manifests.yaml.
func readManifests(path string) ([]admissionv1.MutatingWebhookConfiguration, []admissionv1.ValidatingWebhookConfiguration, error) {
	content, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	var mutating []admissionv1.MutatingWebhookConfiguration
	var validating []admissionv1.ValidatingWebhookConfiguration
	decoder := utilyaml.NewYAMLOrJSONDecoder(bytes.NewReader(content), 4096)
	for {
		var raw json.RawMessage
		if err := decoder.Decode(&raw); err != nil {
			if errors.Is(err, io.EOF) {
				break
			}
			return nil, nil, fmt.Errorf("%s: %w", path, err)
		}
		var meta metav1.TypeMeta
		if len(raw) == 0 || json.Unmarshal(raw, &meta) != nil {
			continue
		}
		switch meta.Kind {
		case "MutatingWebhookConfiguration":
			var upstream admissionv1.MutatingWebhookConfiguration
			if err := json.Unmarshal(raw, &upstream); err != nil {
				return nil, nil, fmt.Errorf("%s: %w", path, err)
			}
			mutating = append(mutating, upstream)
		case "ValidatingWebhookConfiguration":
			var upstream admissionv1.ValidatingWebhookConfiguration
			if err := json.Unmarshal(raw, &upstream); err != nil {
				return nil, nil, fmt.Errorf("%s: %w", path, err)
			}
			validating = append(validating, upstream)
		}
	}
	return mutating, validating, nil
}

// CachesSynced is a readyz check that passes once every informer the manager's cache has
// started so far (those of the controllers included) has synced.
func CachesSynced(mgr manager.Manager) func(*http.Request) error {
	return func(req *http.Request) error {
		ctx, cancel := context.WithTimeout(req.Context(), time.Second)
		defer cancel()
		if !mgr.GetCache().WaitForCacheSync(ctx) {
			return errors.New("caches not synced yet")
		}
		return nil
	}
}
