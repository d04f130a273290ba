// Where magic links go. Default: the server log. With RHIZOME_SMTP_URL: nodemailer.
import type { Logger } from '../logger.js';

export interface Mailer {
  send(to: string, subject: string, text: string): Promise<void>;
}

export class LogMailer implements Mailer {
  constructor(private readonly log: Logger) {}
  async send(to: string, subject: string, text: string): Promise<void> {
    this.log.info(`mail to ${to}: ${subject}\n${text}`);
  }
}

export class SmtpMailer implements Mailer {
  private transport: Promise<{ sendMail(o: object): Promise<unknown> }>;
  constructor(url: string, private readonly from: string) {
    this.transport = import('nodemailer').then((m) => m.default.createTransport(url));
  }
  async send(to: string, subject: string, text: string): Promise<void> {
    await (await this.transport).sendMail({ from: this.from, to, subject, text });
  }
}
