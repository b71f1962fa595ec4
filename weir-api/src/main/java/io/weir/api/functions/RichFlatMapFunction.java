package io.weir.api.functions;

/** A flat-map function with a lifecycle and access to keyed state on a keyed stream. */
public abstract class RichFlatMapFunction<IN, OUT> extends AbstractRichFunction
    implements FlatMapFunction<IN, OUT> {}
