package io.proofline.lab.bench;

import io.proofline.cli.Options;
import io.proofline.cli.UsageException;
import tools.jackson.databind.JsonNode;

import java.io.PrintStream;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.ToLongFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code bench soak}: a running service under steady load for a while, to show whether its memory grows. Clients in a
 * closed loop (as {@code bench http}: submit a job, wait for its proofs, fetch them, submit the next) keep it busy for
 * {@code --duration}; every {@code --sample} it reads {@code /api/v1/pipeline} and prints a row: the resident set, the
 * unaccounted bytes (RSS less tracked buffers, heap committed and the fixed part besides the heap), the heap
 * committed, the heap in use after the last GC, the tracked host bytes and the jobs done so far. With
 * {@code --circuit ID --witness F --input F} the clients alternate JSON input jobs (the circuit's wasm computes the
 * witness) and witness jobs. At the end it prints the least-squares slope, in MiB per minute, of RSS, of the
 * unaccounted bytes and of the heap after GC over the samples after {@code --warmup} (JIT, heap sizing, first key
 * loads and the page cache settle in the first minutes). A leak shows as a slope that stays positive however long the
 * run; {@code --max-slope} makes it the exit status.
 */
final class SoakBench implements BenchSuite {

    private static final String DEFAULT_URL = "http://127.0.0.1:8080";
    private static final double MIB = 1 << 20;

    /** One reading of the service's memory, {@code minutes} after the load started. */
    record Sample(double minutes, long rssBytes, long unaccountedBytes, long heapCommittedBytes, long heapAfterGcBytes,
                  long trackedBytes, long jobsDone) {
    }

    @Override
    public String name() {
        return "soak";
    }

    @Override
    public String description() {
        return "a running service under steady load, its memory sampled: --api-key K [--url " + DEFAULT_URL + "]"
                + " [--duration 30m] [--warmup 5m] [--sample 1m] [--clients 2] [--partitions 1]"
                + " [--circuit ID (--witness F | --input F | --witness F --input F: a mix)"
                + " | --curve bn128 --log-constraints 12] [--max-slope MiB/min]";
    }

    @Override
    public int run(String[] args, PrintStream out) throws Exception {
        Map<String, String> opts = Options.parse(args, "--url", "--api-key", "--duration", "--warmup", "--sample",
                "--clients", "--partitions", "--circuit", "--witness", "--input", "--curve", "--log-constraints",
                "--seed", "--max-slope");
        URI url = URI.create(opts.getOrDefault("--url", DEFAULT_URL));
        String apiKey = Options.require(opts, "--api-key");
        Duration duration = duration(opts, "--duration", Duration.ofMinutes(30));
        Duration warmup = duration(opts, "--warmup", Duration.ofMinutes(5));
        Duration period = duration(opts, "--sample", Duration.ofMinutes(1));
        int clients = Options.intValue(opts, "--clients", 2);
        int partitions = Options.intValue(opts, "--partitions", 1);
        if (clients < 1 || partitions < 1) {
            throw new UsageException("--clients and --partitions must be positive");
        }
        if (duration.isZero() || period.isZero() || warmup.compareTo(duration) >= 0) {
            throw new UsageException("--duration and --sample must be positive and --warmup shorter than --duration");
        }
        Double maxSlope = opts.containsKey("--max-slope") ? Double.parseDouble(opts.get("--max-slope")) : null;
        opts.putIfAbsent("--log-constraints", "12"); // a dev circuit small enough for hours of proofs on a CPU

        try (ServiceClient client = new ServiceClient(url, apiKey)) {
            List<HttpBench.Workload> mix = new ArrayList<>();
            if (opts.containsKey("--circuit") && opts.containsKey("--witness") && opts.containsKey("--input")) {
                Map<String, String> witnessJobs = new java.util.HashMap<>(opts);
                witnessJobs.remove("--input");
                Map<String, String> inputJobs = new java.util.HashMap<>(opts);
                inputJobs.remove("--witness");
                mix.add(HttpBench.workload(client, inputJobs, partitions, out));
                mix.add(HttpBench.workload(client, witnessJobs, partitions, out));
            } else {
                mix.add(HttpBench.workload(client, opts, partitions, out));
            }
            HttpBench.Workload workload = mix.getFirst();
            out.printf("bench soak: %s, circuit %s, %d client(s), %d partition(s) per job, %s, %s, samples every %s,"
                    + " slope after %s%n", url, workload.label(), clients, partitions,
                    mix.size() > 1 ? "JSON input and witness jobs alternating" : "one kind of job", text(duration),
                    text(period), text(warmup));
            out.printf("%7s %9s %16s %18s %18s %12s %6s%n", "minute", "RSS MiB", "unaccounted MiB",
                    "heap committed MiB", "heap after GC MiB", "tracked MiB", "jobs");

            AtomicLong done = new AtomicLong();
            AtomicLong failed = new AtomicLong();
            List<Sample> samples = new ArrayList<>();
            long start = System.nanoTime();
            long end = start + duration.toNanos();
            ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor();
            try {
                for (int c = 0; c < clients; c++) {
                    int first = c;
                    pool.submit(() -> {
                        for (int n = first; System.nanoTime() < end && !Thread.currentThread().isInterrupted(); n++) {
                            try {
                                HttpBench.oneJob(client, mix.get(n % mix.size()));
                                done.incrementAndGet();
                            } catch (InterruptedException e) {
                                return null;
                            } catch (Exception e) {
                                failed.incrementAndGet();
                                out.printf("a job failed: %s%n", e.getMessage());
                            }
                        }
                        return null;
                    });
                }
                for (long next = start; next <= end; next += period.toNanos()) {
                    long wait = next - System.nanoTime();
                    if (wait > 0) {
                        TimeUnit.NANOSECONDS.sleep(wait);
                    }
                    Sample s = sample(client, (System.nanoTime() - start) / 60e9, done.get());
                    samples.add(s);
                    out.printf("%7.1f %9.1f %16.1f %18.1f %18.1f %12.1f %6d%n", s.minutes(), s.rssBytes() / MIB,
                            s.unaccountedBytes() / MIB, s.heapCommittedBytes() / MIB, s.heapAfterGcBytes() / MIB,
                            s.trackedBytes() / MIB, s.jobsDone());
                }
            } finally {
                pool.shutdown();
                if (!pool.awaitTermination(5, TimeUnit.MINUTES)) {
                    pool.shutdownNow();
                }
            }

            double warm = warmup.toNanos() / 60e9;
            List<Sample> settled = samples.stream().filter(s -> s.minutes() >= warm).toList();
            if (settled.size() < 2) {
                out.println("fewer than 2 samples after the warm-up: no slope (lengthen --duration or shorten --sample)");
                return 1;
            }
            double rssSlope = slope(settled, Sample::rssBytes) / MIB;
            double unaccountedSlope = slope(settled, Sample::unaccountedBytes) / MIB;
            double heapSlope = slope(settled, Sample::heapAfterGcBytes) / MIB;
            out.printf("after the warm-up (%d samples, minutes %.1f-%.1f): RSS %+.2f MiB/min, unaccounted %+.2f"
                            + " MiB/min, heap after GC %+.2f MiB/min; %d jobs done, %d failed%n", settled.size(),
                    settled.getFirst().minutes(), settled.getLast().minutes(), rssSlope, unaccountedSlope, heapSlope,
                    done.get(), failed.get());
            out.printf("rss_slope_mib_per_min=%.3f unaccounted_slope_mib_per_min=%.3f"
                            + " heap_after_gc_slope_mib_per_min=%.3f samples=%d jobs=%d failed=%d%n",
                    rssSlope, unaccountedSlope, heapSlope, settled.size(), done.get(), failed.get());
            boolean grows = maxSlope != null && (rssSlope > maxSlope || unaccountedSlope > maxSlope
                    || heapSlope > maxSlope);
            if (grows) {
                out.printf("memory grows faster than --max-slope %.2f MiB/min%n", maxSlope);
            }
            return failed.get() == 0 && !grows ? 0 : 1;
        }
    }

    private static Sample sample(ServiceClient client, double minutes, long jobsDone) throws Exception {
        JsonNode p = client.pipeline();
        return new Sample(minutes, p.path("process").path("rssBytes").asLong(),
                p.path("memory").path("unaccountedBytes").asLong(),
                p.path("process").path("heapCommittedBytes").asLong(),
                p.path("process").path("heapAfterGcBytes").asLong(),
                p.path("memory").path("trackedHostBytes").asLong(), jobsDone);
    }

    /** The least-squares slope of {@code figure} against the samples' minutes, in bytes per minute. */
    static double slope(List<Sample> samples, ToLongFunction<Sample> figure) {
        double meanT = samples.stream().mapToDouble(Sample::minutes).average().orElseThrow();
        double meanY = samples.stream().mapToDouble(s -> (double) figure.applyAsLong(s)).average().orElseThrow();
        double covariance = 0;
        double variance = 0;
        for (Sample s : samples) {
            double dt = s.minutes() - meanT;
            covariance += dt * (figure.applyAsLong(s) - meanY);
            variance += dt * dt;
        }
        if (variance == 0) {
            throw new IllegalArgumentException("the samples are all at one time");
        }
        return covariance / variance;
    }

    private static final Pattern DURATION = Pattern.compile("(\\d+)(ms|s|m|h)");

    /** {@code 90s}, {@code 30m}, {@code 1h}, {@code 500ms}. */
    static Duration duration(Map<String, String> opts, String name, Duration fallback) throws UsageException {
        String value = opts.get(name);
        if (value == null) {
            return fallback;
        }
        Matcher m = DURATION.matcher(value.trim());
        if (!m.matches()) {
            throw new UsageException(name + " must be a duration such as 90s, 30m or 1h: " + value);
        }
        long n = Long.parseLong(m.group(1));
        return switch (m.group(2)) {
            case "ms" -> Duration.ofMillis(n);
            case "s" -> Duration.ofSeconds(n);
            case "m" -> Duration.ofMinutes(n);
            default -> Duration.ofHours(n);
        };
    }

    private static String text(Duration d) {
        return d.toMillis() % 60_000 == 0 ? d.toMinutes() + " min" : d.toMillis() / 1000.0 + " s";
    }
}
