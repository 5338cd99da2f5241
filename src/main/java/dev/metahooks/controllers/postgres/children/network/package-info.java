/**
 * <b>Internal</b>: how the cluster is reached: its Services and NetworkPolicies.
 */
package dev.metahooks.controllers.postgres.children.network;
