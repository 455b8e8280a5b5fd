#include <librdkafka/rdkafka.h>
#include <librdkafka/rdkafka_mock.h>

/* rd_kafka_mock_push_request_errors is variadic; the array form is not, but a single-error
 * helper keeps Swift call sites short. */
static inline void
shipquote_mock_push_errors(rd_kafka_mock_cluster_t *mcluster, int16_t api_key, size_t cnt,
                           const rd_kafka_resp_err_t *errors) {
    rd_kafka_mock_push_request_errors_array(mcluster, api_key, cnt, errors);
}
