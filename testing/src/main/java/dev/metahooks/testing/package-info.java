/**
 * <b>Public API</b>: the testing kit, {@code dev.metahooks:metahooks-testing}, for the tests of a project that writes
 * its own controllers. {@link dev.metahooks.testing.GoldenFixtures} runs request/answer pairs through the hooks (in
 * process and over HTTP); {@link dev.metahooks.testing.Emulator} starts the hook server, a fake API server and
 * Metacontroller's control loop for a scenario, and {@link dev.metahooks.testing.EmulatorExtension} does so around
 * each test; {@link dev.metahooks.testing.kube.KubeSchema}, {@link dev.metahooks.testing.kube.CrdSchema} and
 * {@link dev.metahooks.testing.kube.MetacontrollerSchema} check objects against the Kubernetes and Metacontroller
 * schemas, and {@link dev.metahooks.testing.GeneratedSchema} holds a CRD file to the schema generated from a typed
 * parent (and writes it there with {@code -Dschema.update=true}); {@link dev.metahooks.testing.kube.KubeYaml} reads YAML
 * and kustomizations; {@link dev.metahooks.testing.PublicApi}
 * holds a project's classes to the public API. Of the emulator's engine ({@code dev.metahooks.emulator}, internal)
 * a scenario works with the classes {@link dev.metahooks.testing.PublicApi#emulatorClasses()} names, which
 * {@code Emulator} hands out.
 */
package dev.metahooks.testing;
