/**
 * <b>Internal</b>: PostgresCluster, read top-down: {@code PostgresClusterController} reads the spec, observes, plans
 * ({@code Planner}), renders ({@code Children}) and computes the status, each one call. The layers below, each using
 * only those below it (held by ArchitectureTest): {@code status}, {@code children} (with {@code children.pooler} and
 * {@code children.backup}), {@code plan}, {@code observed}, {@code spec}, {@code base}.
 */
package dev.metahooks.controllers.postgres;
