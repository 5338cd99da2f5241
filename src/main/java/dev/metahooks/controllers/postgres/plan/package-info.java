/**
 * <b>Internal</b>: what one hook call decides before anything is rendered ({@code ClusterPlan}): the mode, TLS,
 * Patroni's settings, the rollout's step, the final backup's stage.
 */
package dev.metahooks.controllers.postgres.plan;
