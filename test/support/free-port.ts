export { freePort } from '../../app/ephemeral-infrastructure';
