#include <librdkafka/rdkafka.h>

/* Swift cannot call C variadic functions, and rd_kafka_produceva double-frees headers on some
 * error paths in librdkafka 2.0.2. This one non-variadic wrapper over rd_kafka_producev keeps the
 * documented contract: payloads are copied, and `headers` stay the caller's unless the call
 * returns RD_KAFKA_RESP_ERR_NO_ERROR. */
static inline rd_kafka_resp_err_t
shipquote_produce(rd_kafka_t *rk, const char *topic, int32_t partition,
                  const void *key, size_t key_len, const void *value, size_t value_len,
                  rd_kafka_headers_t *headers, void *opaque) {
    if (headers)
        return rd_kafka_producev(rk, RD_KAFKA_V_TOPIC(topic), RD_KAFKA_V_PARTITION(partition),
                                 RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY),
                                 RD_KAFKA_V_KEY(key, key_len), RD_KAFKA_V_VALUE((void *)value, value_len),
                                 RD_KAFKA_V_HEADERS(headers), RD_KAFKA_V_OPAQUE(opaque), RD_KAFKA_V_END);
    return rd_kafka_producev(rk, RD_KAFKA_V_TOPIC(topic), RD_KAFKA_V_PARTITION(partition),
                             RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY),
                             RD_KAFKA_V_KEY(key, key_len), RD_KAFKA_V_VALUE((void *)value, value_len),
                             RD_KAFKA_V_OPAQUE(opaque), RD_KAFKA_V_END);
}
