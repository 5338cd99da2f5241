/**
 * <b>Public API</b>: helpers for controller authors. {@link dev.metahooks.kube.FieldReader} is the one way to read a
 * parent's spec and observed objects with errors that name the field; {@link dev.metahooks.kube.TypedParent} reads the
 * spec into a record through it, writes the status from one and generates the CRD's schema from both; label
 * selectors, string maps, quantities in the form the API server stores them and copies of observed objects
 * complete it.
 */
package dev.metahooks.kube;
