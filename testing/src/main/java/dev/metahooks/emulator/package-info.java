/**
 * <b>Internal</b>: the emulator's engine, which may change in any release. Exceptions, public API of the testing kit
 * (see {@code dev.metahooks.testing.PublicApi#emulatorClasses()}): the classes a scenario works with, {@code Cluster}
 * (the API server), {@code Metacontroller} (its control loop), {@code Emitted} (checks of what they emitted) and the
 * types their methods take and give: {@code ApiResources}, {@code Event}, {@code HookCall}, {@code IdleUpdate},
 * {@code PodPolicy}, {@code PodState}, {@code Profile}, {@code Round}, {@code SyncError}, {@code World} and
 * {@code Write}. Reach them through {@code dev.metahooks.testing.Emulator}.
 */
package dev.metahooks.emulator;
