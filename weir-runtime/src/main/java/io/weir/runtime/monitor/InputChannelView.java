package io.weir.runtime.monitor;

import java.io.Serializable;

/**
 * What one input channel of a subtask (the records from one upstream subtask) has in flight: queued
 * in the subtask's input gate now, and from an upstream subtask on another task manager, waiting
 * for room in the gate after they reached this one; read without stopping it.
 *
 * @param channel the channel's index in the gate: the task's inputs in order, a channel per
 *     upstream subtask
 * @param queuedRecords records (and events) queued
 * @param queuedBytes their bytes, estimated from the encoded size of a record the channel delivered
 *     lately; -1 while unknown (none sized yet, or records that cannot be encoded)
 * @param creditRecords the records its sender may put in one batch (the channel's credit)
 */
public record InputChannelView(int channel, long queuedRecords, long queuedBytes, int creditRecords)
    implements Serializable {}
