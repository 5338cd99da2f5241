/**
 * <b>Internal</b>: the database pods: the StatefulSet and its claims, Spilo's container and its settings (parameters, WAL volume,
 * TLS mounts), the exporter sidecar and its Service, the PodDisruptionBudget.
 */
package dev.metahooks.controllers.postgres.children.pod;
