package io.weir.api.functions;

/** A map function with a lifecycle and access to keyed state on a keyed stream. */
public abstract class RichMapFunction<IN, OUT> extends AbstractRichFunction
    implements MapFunction<IN, OUT> {}
