import type { EmailService } from '../../src/services/email.ts';
import { MessageDelivery } from '../../src/services/message-delivery.ts';

/** Message delivery over this email service, with the OSS outbound policy (tests send only to loopback). */
export const deliveryOf = (email: EmailService) => new MessageDelivery(email, { denyPrivate: false, allowList: [] });
