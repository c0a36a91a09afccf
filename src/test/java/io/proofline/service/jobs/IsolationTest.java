package io.proofline.service.jobs;

import org.junit.jupiter.api.Test;

import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Which runs an instance lets start so that a crash can be blamed (issue #33): a suspect only alone, nothing beside a
 * suspect, and ordinary jobs turned away for a while after a suspect found the instance busy, so that it drains.
 */
class IsolationTest {

    @Test
    void ordinaryJobsRunSideBySide() {
        Isolation isolation = new Isolation();
        assertThat(isolation.enter("a", false)).isPresent();
        assertThat(isolation.enter("b", false)).isPresent();
    }

    @Test
    void aSuspectRunsOnlyAloneAndNothingStartsBesideIt() {
        Isolation isolation = new Isolation();
        Isolation.Ticket suspect = isolation.enter("suspect", true).orElseThrow();
        assertThat(isolation.runningAlone()).contains("suspect");
        assertThat(isolation.enter("ordinary", false)).as("nothing beside a suspect").isEmpty();
        suspect.close();
        suspect.close(); // closing twice leaves once
        assertThat(isolation.runningAlone()).isEmpty();
        assertThat(isolation.enter("ordinary", false)).isPresent();
    }

    @Test
    void suspectsTakeTurnsAndOrdinaryJobsWaitWhileOneIsWaiting() {
        Isolation isolation = new Isolation();
        Isolation.Ticket first = isolation.enter("first", true).orElseThrow();
        assertThat(isolation.enter("second", true)).as("one suspect at a time").isEmpty();
        first.close();
        assertThat(isolation.enter("ordinary", false)).as("held off while the second suspect waits").isEmpty();
        assertThat(isolation.enter("second", true)).isPresent();
    }

    @Test
    void aSuspectThatFindsTheInstanceBusyHoldsOrdinaryJobsOffUntilItIsEmpty() {
        Isolation isolation = new Isolation();
        Isolation.Ticket running = isolation.enter("running", false).orElseThrow();
        assertThat(isolation.enter("suspect", true)).as("not while another job runs here").isEmpty();
        assertThat(isolation.enter("ordinary", false)).as("held off: the instance drains for the suspect").isEmpty();
        running.close();
        Optional<Isolation.Ticket> suspect = isolation.enter("suspect", true);
        assertThat(suspect).as("the drained instance runs the suspect alone").isPresent();
    }
}
