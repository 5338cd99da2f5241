/**
 * <b>Internal</b>: connection pooling: PgBouncer's ConfigMap, Deployment, Service and PodDisruptionBudget.
 */
package dev.metahooks.controllers.postgres.children.pooler;
