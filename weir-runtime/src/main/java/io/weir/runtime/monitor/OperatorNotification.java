package io.weir.runtime.monitor;

import java.io.Serializable;

/**
 * One chained operator told that a checkpoint completed; for a two-phase-commit sink the span is
 * its commit.
 *
 * @param failure what the notification threw, or null when it returned normally
 */
public record OperatorNotification(
    String operatorUid, long startMillis, long endMillis, String failure) implements Serializable {}
