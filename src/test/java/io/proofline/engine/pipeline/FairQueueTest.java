package io.proofline.engine.pipeline;

import io.proofline.engine.Priority;
import io.proofline.engine.QueueFullException;
import io.proofline.engine.TenantShare;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The engine's queue order (issue #33, fairness between tenants): strict by priority, weighted fair between tenants
 * within a priority ({@link FairClock}), an item put back keeps its place, and a random mix of admissions, dispatches,
 * put-backs and cancellations dispatches exactly what a plain reference model of start-time fair queuing does.
 */
class FairQueueTest {

    /** A queued item: a tenant's partition at a priority. */
    static final class Item implements Queued {
        final String name;
        final Priority priority;
        final TenantShare share;
        QueuePlace place;

        Item(String name, Priority priority, TenantShare share) {
            this.name = name;
            this.priority = priority;
            this.share = share;
        }

        @Override
        public Priority priority() {
            return priority;
        }

        @Override
        public TenantShare share() {
            return share;
        }

        @Override
        public QueuePlace place() {
            return place;
        }

        @Override
        public void place(QueuePlace value) {
            place = value;
        }

        @Override
        public String toString() {
            return name;
        }
    }

    private static WorkQueue<Item> queue(int capacity) {
        return new WorkQueue<>(capacity, Duration.ofSeconds(1));
    }

    private static List<Item> job(String tenant, double weight, Priority priority, int partitions) {
        TenantShare share = new TenantShare(tenant, weight);
        List<Item> items = new ArrayList<>();
        for (int i = 0; i < partitions; i++) {
            items.add(new Item(tenant + "#" + i, priority, share));
        }
        return items;
    }

    private static Item dispatch(WorkQueue<Item> queue) {
        Item head = queue.head();
        assertThat(queue.removeIfHead(head)).isTrue();
        return head;
    }

    @Test
    void tenantsWithWorkWaitingAreDispatchedInProportionToTheirWeights() {
        WorkQueue<Item> queue = queue(2000);
        queue.admit(job("a", 1, Priority.LOW, 400));
        queue.admit(job("b", 3, Priority.LOW, 400));
        Map<String, Integer> got = new HashMap<>();
        for (int i = 0; i < 400; i++) {
            got.merge(dispatch(queue).share().tenant(), 1, Integer::sum);
        }
        // both wait throughout: their work divided by their weights differs by at most 1/1 + 1/3
        assertThat(Math.abs(got.get("a") / 1.0 - got.get("b") / 3.0)).isLessThanOrEqualTo(1 + 1 / 3.0);
        assertThat(got.get("b")).isBetween(299, 301);
    }

    @Test
    void aTenantArrivingBehindAnotherTenantsBacklogIsDispatchedNext() {
        WorkQueue<Item> queue = queue(1024);
        for (int j = 0; j < 50; j++) {
            queue.admit(job("a", 1, Priority.LOW, 10));
        }
        for (int i = 0; i < 37; i++) {
            dispatch(queue);
        }
        List<Item> b = job("b", 1, Priority.LOW, 1);
        queue.admit(b);
        // a's next partition was tagged before b arrived, with the same start: at most it goes first
        List<Item> next = List.of(dispatch(queue), dispatch(queue));
        assertThat(next).contains(b.getFirst());
        assertThat(queue.queuedByTenant()).isEqualTo(Map.of("a", 500 - 37 - 1));
    }

    @Test
    void aHigherPriorityGoesFirstWhateverTheTags() {
        WorkQueue<Item> queue = queue(1024);
        queue.admit(job("a", 1, Priority.NORMAL, 5));
        queue.admit(job("b", 100, Priority.NORMAL, 5));
        queue.admit(job("c", 0.01, Priority.HIGH, 3));
        queue.admit(job("d", 1, Priority.CRITICAL, 1));
        assertThat(dispatch(queue).name).isEqualTo("d#0");
        for (int i = 0; i < 3; i++) {
            assertThat(dispatch(queue).priority()).isEqualTo(Priority.HIGH);
        }
        for (int i = 0; i < 10; i++) {
            assertThat(dispatch(queue).priority()).isEqualTo(Priority.NORMAL);
        }
        assertThat(queue.size()).isZero();
    }

    @Test
    void aPartitionPutBackTakesItsPlaceBeforeEverythingThatCameAfterIt() {
        WorkQueue<Item> queue = queue(1024);
        queue.admit(job("a", 1, Priority.LOW, 3));
        Item first = dispatch(queue);
        QueuePlace place = first.place();
        queue.admit(job("b", 1, Priority.LOW, 3));
        queue.admit(job("c", 5, Priority.LOW, 3));
        queue.putBack(first);
        assertThat(first.place()).isSameAs(place);
        assertThat(queue.head()).isSameAs(first);
        // beyond the capacity too: a partition put back was admitted once
        WorkQueue<Item> full = queue(2);
        full.admit(job("a", 1, Priority.LOW, 2));
        Item taken = dispatch(full);
        full.admit(job("b", 1, Priority.LOW, 1));
        full.putBack(taken);
        assertThat(full.size()).isEqualTo(3);
        assertThat(full.head()).isSameAs(taken);
    }

    @Test
    void aJobThatDoesNotFitIsRefusedWholeAndMovesNoTag() {
        WorkQueue<Item> queue = queue(4);
        queue.admit(job("a", 1, Priority.LOW, 3));
        assertThatThrownBy(() -> queue.admit(job("b", 1, Priority.LOW, 2))).isInstanceOf(QueueFullException.class);
        assertThat(queue.size()).isEqualTo(3);
        List<Item> b = job("b", 1, Priority.LOW, 1);
        queue.admit(b);
        assertThat(b.getFirst().place().startTag()).isZero();
    }

    /**
     * Random admissions (tenants of random weights and priorities, jobs of 1 to 8 partitions), dispatches, put-backs
     * of dispatched partitions and cancellations of queued ones: the queue dispatches exactly what the reference model
     * does, and any two tenants that both had work waiting at one priority throughout got work in proportion to their
     * weights within the bound of start-time fair queuing.
     */
    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 33, 2026})
    void randomOperationsMatchTheReferenceModel(long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        WorkQueue<Item> queue = queue(10_000);
        ReferenceModel model = new ReferenceModel();
        List<TenantShare> tenants = new ArrayList<>();
        for (int t = 0; t < 5; t++) {
            tenants.add(new TenantShare("t" + t, List.of(0.5, 1.0, 2.0, 3.0).get(random.nextInt(4))));
        }
        List<Item> dispatched = new ArrayList<>();
        for (int step = 0; step < 4000; step++) {
            int op = random.nextInt(10);
            if (op < 4) {
                TenantShare share = tenants.get(random.nextInt(tenants.size()));
                Priority priority = Priority.values()[random.nextInt(2) * 2];
                List<Item> job = new ArrayList<>();
                int n = 1 + random.nextInt(8);
                for (int i = 0; i < n; i++) {
                    job.add(new Item(share.tenant() + "@" + step + "#" + i, priority, share));
                }
                queue.admit(job);
                model.admit(job);
            } else if (op < 8) {
                Item expected = model.dispatch();
                Item head = queue.head();
                assertThat(head).as("step %d", step).isSameAs(expected);
                if (head != null) {
                    assertThat(queue.removeIfHead(head)).isTrue();
                    dispatched.add(head);
                }
            } else if (op < 9 && !dispatched.isEmpty()) {
                Item back = dispatched.remove(random.nextInt(dispatched.size()));
                queue.putBack(back);
                model.putBack(back);
            } else if (!model.queued.isEmpty()) {
                Item cancelled = model.queued.get(random.nextInt(model.queued.size()));
                assertThat(queue.remove(cancelled)).isTrue();
                model.queued.remove(cancelled);
            }
            assertThat(queue.size()).isEqualTo(model.queued.size());
        }
    }

    @Test
    void backloggedTenantsStayWithinTheFairnessBoundOverEveryInterval() {
        WorkQueue<Item> queue = queue(10_000);
        Map<String, Double> weights = Map.of("a", 1.0, "b", 2.0, "c", 0.5);
        weights.forEach((t, w) -> queue.admit(job(t, w, Priority.NORMAL, 1000)));
        List<String> order = new ArrayList<>();
        for (int i = 0; i < 600; i++) {
            order.add(dispatch(queue).share().tenant());
        }
        for (int from = 0; from < order.size(); from += 37) {
            for (int to = from + 1; to <= order.size(); to += 41) {
                Map<String, Integer> got = new HashMap<>();
                order.subList(from, to).forEach(t -> got.merge(t, 1, Integer::sum));
                for (String i : weights.keySet()) {
                    for (String j : weights.keySet()) {
                        double gap = got.getOrDefault(i, 0) / weights.get(i) - got.getOrDefault(j, 0) / weights.get(j);
                        assertThat(Math.abs(gap)).as("%s vs %s over [%d, %d)", i, j, from, to)
                                .isLessThanOrEqualTo(1 / weights.get(i) + 1 / weights.get(j) + 1e-9);
                    }
                }
            }
        }
    }

    /**
     * Start-time fair queuing as its definition reads, with a list and a linear search: a partition's start tag is the
     * later of its class's virtual time and its tenant's last finish tag, its tenant's finish tag then advances by
     * 1/weight; the virtual time is the greatest start tag dispatched; the next dispatched is the highest priority,
     * then the lowest start tag, then the earliest arrival.
     */
    static final class ReferenceModel {
        final List<Item> queued = new ArrayList<>();
        final Map<Item, double[]> tags = new HashMap<>();
        final Map<Priority, Double> virtualTime = new EnumMap<>(Priority.class);
        final Map<String, Double> finish = new HashMap<>();
        long arrivals;

        void admit(List<Item> job) {
            for (Item item : job) {
                double v = virtualTime.getOrDefault(item.priority, 0.0);
                double start = Math.max(v, finish.getOrDefault(item.priority + "/" + item.share.tenant(), 0.0));
                finish.put(item.priority + "/" + item.share.tenant(), start + 1 / item.share.weight());
                tags.put(item, new double[]{start, ++arrivals});
                queued.add(item);
            }
        }

        Item dispatch() {
            Item best = queued.stream().min(Comparator.<Item>comparingInt(i -> -i.priority.ordinal())
                    .thenComparingDouble(i -> tags.get(i)[0]).thenComparingDouble(i -> tags.get(i)[1])).orElse(null);
            if (best != null) {
                queued.remove(best);
                virtualTime.merge(best.priority, tags.get(best)[0], Math::max);
            }
            return best;
        }

        void putBack(Item item) {
            queued.add(item);
        }
    }
}
